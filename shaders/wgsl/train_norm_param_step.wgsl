// train_norm_param_step.glsl's twin, appended to train_norm_pgrad.wgsl and train_norm_bwd_params.wgsl: dγ[c]
// and (where the norm has β) dβ[c] written, then train_sgd's step on γ[c] (and β[c]) with their momentum
// buffers. The shader it is appended to declares DGAMMA, DBETA, GAMMA, BETA, MGAMMA and MBETA.
fn norm_param_step(c : u32, dg : f32, db : f32, bias : bool, sgd : bool, lr : f32, momentum : f32) {
  DGAMMA[c] = dg;
  if (bias) {
    DBETA[c] = db;
  }
  if (!sgd) {
    return;
  }
  let b = momentum * MGAMMA[c] + dg;
  MGAMMA[c] = b;
  GAMMA[c] = GAMMA[c] - lr * b;
  if (bias) {
    let bb = momentum * MBETA[c] + db;
    MBETA[c] = bb;
    BETA[c] = BETA[c] - lr * bb;
  }
}
