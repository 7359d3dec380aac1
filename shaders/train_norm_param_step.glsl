// A norm's parameter gradients stored and, with SGD fused, their step, for train_norm_pgrad.comp and
// train_norm_bwd_params.comp: dγ[c] and (where the norm has β) dβ[c] written, then train_sgd.comp's step on
// γ[c] (and β[c]) with their momentum buffers. The including shader declares DGAMMA, DBETA, GAMMA, BETA,
// MGAMMA and MBETA first.
void norm_param_step(uint c, float dg, float db, bool bias, bool sgd, float lr, float momentum) {
    DGAMMA[c] = dg;
    if (bias) DBETA[c] = db;
    if (!sgd) return;
    float b = momentum * MGAMMA[c] + dg;
    MGAMMA[c] = b;
    GAMMA[c] -= lr * b;
    if (!bias) return;
    b = momentum * MBETA[c] + db;
    MBETA[c] = b;
    BETA[c] -= lr * b;
}
