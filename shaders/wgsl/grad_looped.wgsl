// Looped backward (after grad_common.wgsl) for statistics too long for grad_fused.wgsl's registers,
// as shaders/grad_looped.comp without its subgroup owners, its blocks of rows and its γ/β partials:
// workgroup s owns statistic s and walks it twice. The first loop reads x and dy and reduces Σg and
// Σg·x̂ (g = dy·γ); the second reads the same elements again (from the cache the first one filled)
// and writes ∂L/∂x = rstd·(g − mean g − x̂·mean g·x̂) (RMS: no mean g term), and lane 0 writes
// GRAD[s] = (mean g, mean g·x̂, n, 0): no partials, no merge pass. One float per access
// (pack1.wgsl). ∂L/∂γ and ∂L/∂β come from the γ/β pass (grad_reduce.wgsl PARAM_PASS) after it.
// workgroup_sum: workgroup_sum.wgsl (the host appends it)

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let s = linear_workgroup(wid);
    if (s >= L.stat_count) { return; }  // uniform: the same for the whole workgroup
    let lane = lid.x;
    let base = s * L.stat_stride;
    let st = STATS[s];
    var a = 0.0;
    var b = 0.0;
    for (var e = lane; e < L.count; e = e + WG) {
        let i = element_offset(base, e);
        let g = DY[i] * grad_gamma(s, e);
        a = a + g;
        b = b + g * grad_xhat(X[i], st);
    }
    let n = f32(L.count);
    let mean_g = workgroup_sum(lane, a) / n;
    let mean_gx = workgroup_sum(lane, b) / n;
    var mg = mean_g;
    if (RMS) { mg = 0.0; }
    for (var e = lane; e < L.count; e = e + WG) {
        let i = element_offset(base, e);
        let g = DY[i] * grad_gamma(s, e);
        Y[i] = st.w * (g - mg - grad_xhat(X[i], st) * mean_gx);
    }
    if (lane == 0u) { GRAD[s] = vec4<f32>(mean_g, mean_gx, n, 0.0); }
}
