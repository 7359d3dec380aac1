// Training: Linear's input gradient of one block of 4 samples × 4 inputs, for train_linear_dx.comp,
// train_norm_linear_dx.comp, train_linear_bwd.comp and train_head_step.comp (their #define DZ, A): DX[n, i] = Σₒ
// DZ[n, o]·W[o, i] in order of o, times f'(A[n, i]) of the activation pc.act (0 none, A unused). The kernel
// declares DZ (N × Out), W (Out × In), DX and A (N × In), pc.N, pc.In, pc.Out, pc.act, and includes
// train_linear_block.glsl and train_act_common.glsl first.
void linear_dx_block(uint n0, uint i0) {
    float acc[4][4];
    block_zero(acc);
    for (uint o = 0u; o < pc.Out; ++o) {
        float dy[4], w[4];  // rows and columns past the end load the last one's values, never stored
        for (uint a = 0u; a < 4u; ++a) dy[a] = DZ[min(n0 + a, pc.N - 1u) * pc.Out + o];
        for (uint b = 0u; b < 4u; ++b) w[b] = W[o * pc.In + min(i0 + b, pc.In - 1u)];
        block_fma(acc, dy, w);
    }
    for (uint a = 0u; a < 4u; ++a)
        for (uint b = 0u; b < 4u; ++b) {
            uint n = n0 + a, i = i0 + b;
            if (n >= pc.N || i >= pc.In) continue;
            uint e2 = n * pc.In + i;
            DX[e2] = pc.act == 0u ? acc[a][b] : acc[a][b] * act_slope(pc.act, A[e2]);
        }
}
