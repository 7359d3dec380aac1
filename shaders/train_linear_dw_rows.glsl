// Training: Linear's parameter gradients of one block of 4 outputs × 4 columns of (W | b), for train_linear_dw,
// train_head_step, train_linear_bwd and train_norm_pgrad_dw (.comp): dW[o, i] = Σₙ DY[n, o]·X[n, i] and db[o] = Σₙ
// DY[n, o] in order of n (column In is the bias, whose X is 1), then, with pc.sgd, train_sgd.comp's step on each of
// them (W or b) with its momentum buffer (MW or MB). The kernel declares DY (N × Out), X (N × In), DW, DB, W, B,
// MW, MB and pc.N, pc.In, pc.Out, pc.sgd, pc.lr, pc.momentum, and includes train_linear_block.glsl first.
// One parameter's gradient g and, with sgd, its step: momentum buffer m ← μ·m + g, p ← p − lr·m.
void linear_dw_store(uint o, uint i, float g) {
    if (i == pc.In) {
        DB[o] = g;
        if (pc.sgd == 0u) return;
        float m = pc.momentum * MB[o] + g;
        MB[o] = m;
        B[o] -= pc.lr * m;
    } else {
        uint w = o * pc.In + i;
        DW[w] = g;
        if (pc.sgd == 0u) return;
        float m = pc.momentum * MW[w] + g;
        MW[w] = m;
        W[w] -= pc.lr * m;
    }
}
void linear_dw_block(uint o0, uint i0) {
    float acc[4][4];
    block_zero(acc);
    for (uint n = 0u; n < pc.N; ++n) {
        float dy[4], x[4];  // rows and columns past the end load the last one's values, never stored
        for (uint a = 0u; a < 4u; ++a) dy[a] = DY[n * pc.Out + min(o0 + a, pc.Out - 1u)];
        for (uint b = 0u; b < 4u; ++b) x[b] = i0 + b < pc.In ? X[n * pc.In + min(i0 + b, pc.In - 1u)] : 1.0;
        block_fma(acc, dy, x);
    }
    for (uint a = 0u; a < 4u; ++a)
        for (uint b = 0u; b < 4u; ++b)
            if (o0 + a < pc.Out && i0 + b <= pc.In) linear_dw_store(o0 + a, i0 + b, acc[a][b]);
}
