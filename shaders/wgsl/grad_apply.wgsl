// Element-wise ∂L/∂x (after grad_common.wgsl) with the forward's statistics and the statistics
// pass's means (GRAD[s]), as shaders/grad_apply.comp:
//   dx = rstd·(g − mean(g) − x̂·mean(g·x̂)), g = dy·γ;  RMS: no mean(g) term;
//   EVAL (BatchNorm with running statistics, constants): dx = rstd·g.
// Workgroup w handles chunk (w % chunks) of statistic (w / chunks), as norm_apply.wgsl.

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let w = linear_workgroup(wid);
    if (w >= L.stat_count * L.chunks) { return; }
    let c = chunk_of(w);
    let st = STATS[c.s];
    var m = vec2<f32>(0.0);  // mean g, mean g·x̂
    if (!EVAL) { m = GRAD[c.s].xy; }
    if (RMS) { m.x = 0.0; }
    for (var e = c.e0 + lid.x; e < c.e1; e = e + WG) {  // at most VPT elements
        let i = element_offset(c.s * L.stat_stride, e);
        let g = DY[i] * grad_gamma(c.s, e);
        Y[i] = st.w * (g - m.x - grad_xhat(X[i], st) * m.y);
    }
}
