// Training: the head's Linear in the step's loss pass (train_head_logits.glsl's twin), for train_head_loss.wgsl
// and train_head_step.wgsl: invocation t of the one workgroup of 64 computes the logits of its samples n = t,
// t + 64, …, LOGITS[n, k] = Σᵢ X[n, i]·W[k, i] in order of i, then + b[k]. The kernel declares X, W, B, LOGITS
// and pc.N, pc.K, pc.In.
fn head_logits(t : u32) {
  for (var n = t; n < pc.N; n += 64u) {
    for (var k = 0u; k < pc.K; k++) {
      var acc = 0.0;
      for (var i = 0u; i < pc.In; i++) {
        acc += X[n * pc.In + i] * W[k * pc.In + i];
      }
      LOGITS[n * pc.K + k] = acc + B[k];
    }
  }
}
