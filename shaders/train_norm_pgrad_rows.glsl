// Training: a norm's parameter gradients of channel c, for train_norm_pgrad.comp and train_norm_pgrad_dw.comp:
// dγ[c] = Σ DY·XHAT and dβ[c] = Σ DY over the channel's rows × inner elements (r·row_stride + c·channel_stride
// + i) in that order, then train_norm_param_step.glsl's store and SGD step. The kernel declares DY, XHAT and
// pc.rows, pc.row_stride, pc.channel_stride, pc.inner, pc.has_bias, pc.sgd, pc.lr, pc.momentum, and includes
// train_norm_param_step.glsl first.
void norm_pgrad_channel(uint c) {
    float dg = 0.0, db = 0.0;
    for (uint r = 0u; r < pc.rows; ++r) {
        for (uint i = 0u; i < pc.inner; ++i) {
            uint a = r * pc.row_stride + c * pc.channel_stride + i;
            dg += DY[a] * XHAT[a];
            db += DY[a];
        }
    }
    norm_param_step(c, dg, db, pc.has_bias != 0u, pc.sgd != 0u, pc.lr, pc.momentum);
}
