// Training: a Linear's whole backward in one workgroup of 64 (train_linear_backward.glsl's twin), for
// train_linear_bwd.wgsl and train_head_step.wgsl: invocation t takes the blocks t, t + 64, … of dX, then, after a
// barrier (every block of dX has read W), those of dW, db with SGD's step. The kernel appends
// train_linear_dx_rows.wgsl and train_linear_dw_rows.wgsl.
fn linear_backward(t : u32) {
  let ib = (pc.In + 3u) / 4u;
  let cb = (pc.In + 4u) / 4u;
  for (var e = t; e < ib * ((pc.N + 3u) / 4u); e += 64u) {
    linear_dx_block(e / ib * 4u, e % ib * 4u);
  }
  storageBarrier();  // every block of dX has read W before dW's SGD step writes it
  for (var e = t; e < cb * ((pc.Out + 3u) / 4u); e += 64u) {
    linear_dw_block(e / cb * 4u, e % cb * 4u);
  }
}
