// Training: a Linear's whole backward in one workgroup of 64 (train_linear_bwd.comp, train_head_step.comp):
// invocation t takes the blocks t, t + 64, … of dX (train_linear_dx_rows.glsl), then, after a barrier (every
// block of dX has read W), those of dW, db with SGD's step (train_linear_dw_rows.glsl): each value bit for bit
// what train_linear_dx and train_linear_dw give. The kernel includes both first.
void linear_backward(uint t) {
    uint ib = (pc.In + 3u) / 4u, cb = (pc.In + 4u) / 4u;
    for (uint e = t; e < ib * ((pc.N + 3u) / 4u); e += 64u) linear_dx_block(e / ib * 4u, e % ib * 4u);
    memoryBarrierBuffer();  // every block of dX has read W before dW's SGD step writes it
    barrier();
    for (uint e = t; e < cb * ((pc.Out + 3u) / 4u); e += 64u) linear_dw_block(e / cb * 4u, e % cb * 4u);
}
