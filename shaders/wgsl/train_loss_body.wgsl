// Training: the loss of train_loss.wgsl and train_head_loss.wgsl (train_loss_body.glsl's twin), loss_main(t)
// for invocation t of their one workgroup of 64: softmax cross-entropy, mean over the batch, and accuracy
// (argmax = label, the first maximum on ties) into LOG[2·index], LOG[2·index + 1]. Training (eval = 0):
// index = STEP and DLOGITS = (softmax − onehot) / N, then STEP advances (the step counter). Evaluation
// (eval = 1): index = STEP − 1, the step last run. The per-sample terms are summed in workgroup memory in the
// GLSL kernel's tree order. The kernel declares LOGITS, LABELS, DLOGITS, LOG, STEP and pc.N, pc.K, pc.eval.

var<workgroup> s_loss : array<f32, 64>;
var<workgroup> s_hits : array<f32, 64>;

fn loss_main(t : u32) {
  var loss = 0.0;
  var hits = 0.0;
  for (var n = t; n < pc.N; n += 64u) {
    let base = n * pc.K;
    let y = LABELS[n];
    var mx = LOGITS[base];
    var arg = 0u;
    for (var k = 1u; k < pc.K; k++) {
      let v = LOGITS[base + k];
      if (v > mx) {
        mx = v;
        arg = k;
      }
    }
    var sum = 0.0;
    for (var k = 0u; k < pc.K; k++) {
      sum += exp(LOGITS[base + k] - mx);
    }
    loss += log(sum) + mx - LOGITS[base + y];
    hits += select(0.0, 1.0, arg == y);
    if (pc.eval == 0u) {
      for (var k = 0u; k < pc.K; k++) {
        let p = exp(LOGITS[base + k] - mx) / sum;
        DLOGITS[base + k] = (p - select(0.0, 1.0, k == y)) / f32(pc.N);
      }
    }
  }
  s_loss[t] = loss;
  s_hits[t] = hits;
  workgroupBarrier();  // every invocation's terms stored before the tree reads them
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (t < s) {
      s_loss[t] += s_loss[t + s];
      s_hits[t] += s_hits[t + s];
    }
    workgroupBarrier();  // this level's sums written before the next level reads them
  }
  if (t == 0u) {
    let step = STEP[0];
    if (pc.eval != 0u && step == 0u) {
      return;
    }
    let index = select(step - 1u, step, pc.eval == 0u);
    LOG[2u * index] = s_loss[0] / f32(pc.N);
    LOG[2u * index + 1u] = s_hits[0] / f32(pc.N);
    if (pc.eval == 0u) {
      STEP[0] = index + 1u;
    }
  }
}
