// Training: the head's Linear in the step's loss pass (train_head_loss.comp, train_head_step.comp): invocation t
// of the one workgroup of 64 computes the logits of its samples n = t, t + 64, …, LOGITS[n, k] = Σᵢ X[n, i]·W[k, i]
// in order of i, then + b[k] (train_linear.comp's sums without an activation). The kernel declares X, W, B,
// LOGITS and pc.N, pc.K, pc.In.
void head_logits(uint t) {
    for (uint n = t; n < pc.N; n += 64u)
        for (uint k = 0u; k < pc.K; ++k) {
            float acc = 0.0;
            for (uint i = 0u; i < pc.In; ++i) acc += X[n * pc.In + i] * W[k * pc.In + i];
            LOGITS[n * pc.K + k] = acc + B[k];
        }
}
