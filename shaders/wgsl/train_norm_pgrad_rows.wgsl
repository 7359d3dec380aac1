// Training: a norm's parameter gradients of channel c (train_norm_pgrad_rows.glsl's twin), for
// train_norm_pgrad.wgsl and train_norm_pgrad_dw.wgsl: dγ[c] = Σ DY·XHAT and dβ[c] = Σ DY over the channel's rows ×
// inner elements in that order, then train_norm_param_step.wgsl's store and SGD step. The kernel declares DY, XHAT
// and pc's rows, row_stride, channel_stride, inner, has_bias, sgd, lr, momentum, and appends
// train_norm_param_step.wgsl.
fn norm_pgrad_channel(c : u32) {
  var dg = 0.0;
  var db = 0.0;
  for (var r = 0u; r < pc.rows; r++) {
    for (var i = 0u; i < pc.inner; i++) {
      let a = r * pc.row_stride + c * pc.channel_stride + i;
      dg += DY[a] * XHAT[a];
      db += DY[a];
    }
  }
  norm_param_step(c, dg, db, pc.has_bias != 0u, pc.sgd != 0u, pc.lr, pc.momentum);
}
