// Training: the loss of train_loss.comp and train_head_loss.comp, loss_main(t) for invocation t of their one
// workgroup of 64: softmax cross-entropy, mean over the batch, and accuracy (argmax = label, the first maximum
// on ties) into LOG[2·index], LOG[2·index + 1]. Training (eval = 0): index = STEP and
// DLOGITS = (softmax − onehot) / N, then STEP advances (the step counter, train_program.hpp). Evaluation
// (eval = 1): index = STEP − 1, the step last run. The per-sample terms are summed in shared memory. The
// kernel declares LOGITS, LABELS, DLOGITS, LOG, STEP and pc.N, pc.K, pc.eval.
shared float s_loss[64];
shared float s_hits[64];
void loss_main(uint t) {
    float loss = 0.0, hits = 0.0;
    for (uint n = t; n < pc.N; n += 64u) {
        uint base = n * pc.K, y = LABELS[n];
        float mx = LOGITS[base];
        uint arg = 0u;
        for (uint k = 1u; k < pc.K; ++k) {
            float v = LOGITS[base + k];
            if (v > mx) { mx = v; arg = k; }
        }
        float sum = 0.0;
        for (uint k = 0u; k < pc.K; ++k) sum += exp(LOGITS[base + k] - mx);
        loss += log(sum) + mx - LOGITS[base + y];
        hits += arg == y ? 1.0 : 0.0;
        if (pc.eval == 0u) {
            for (uint k = 0u; k < pc.K; ++k) {
                float p = exp(LOGITS[base + k] - mx) / sum;
                DLOGITS[base + k] = (p - (k == y ? 1.0 : 0.0)) / float(pc.N);
            }
        }
    }
    s_loss[t] = loss;
    s_hits[t] = hits;
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1u) {
        if (t < s) {
            s_loss[t] += s_loss[t + s];
            s_hits[t] += s_hits[t + s];
        }
        barrier();
    }
    if (t == 0u) {
        if (pc.eval != 0u && STEP == 0u) return;
        uint index = pc.eval == 0u ? STEP : STEP - 1u;
        LOG[2u * index] = s_loss[0] / float(pc.N);
        LOG[2u * index + 1u] = s_hits[0] / float(pc.N);
        if (pc.eval == 0u) STEP = index + 1u;
    }
}
