// Training: Linear's forward sums of one block of 4 samples × 4 outputs, acc[a][b] = Σᵢ X[n0 + a, i]·W[o0 + b, i]
// in order of i (without the bias), for train_linear.comp and train_linear_norm.comp: the including kernel
// declares X (N × In), W (Out × In) and pc.N, pc.In, pc.Out, and includes train_linear_block.glsl first.
void linear_block_sums(uint n0, uint o0, out float acc[4][4]) {
    block_zero(acc);
    for (uint i = 0u; i < pc.In; ++i) {
        float x[4], w[4];  // rows past the end load the last row's values, never stored
        for (uint a = 0u; a < 4u; ++a) x[a] = X[min(n0 + a, pc.N - 1u) * pc.In + i];
        for (uint b = 0u; b < 4u; ++b) w[b] = W[min(o0 + b, pc.Out - 1u) * pc.In + i];
        block_fma(acc, x, w);
    }
}
