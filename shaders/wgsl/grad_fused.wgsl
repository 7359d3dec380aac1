// Fused backward (after grad_common.wgsl) where the forward's plan fuses (a statistic fits one
// workgroup's registers), as shaders/grad_fused.comp without its subgroup owners and its γ/β
// partials: workgroup s reads statistic s's x and dy once into registers (VPT accesses of PACK
// elements per invocation), reduces Σg and Σg·x̂ (g = dy·γ), writes GRAD[s] = (mean g, mean g·x̂,
// n, 0) and ∂L/∂x = rstd·(g − mean g − x̂·mean g·x̂) (RMS: no mean g term) in the same kernel.
// ∂L/∂γ and ∂L/∂β come from the γ/β pass (grad_reduce.wgsl PARAM_PASS) after it.
// workgroup_sum: workgroup_sum.wgsl (the host appends it)

// γ of the PACK elements from e (1 without a weight): one γ, or per element 4 consecutive ones.
fn gamma4(pbase: u32, e: u32) -> vec4<f32> {
    if (L.has_w == 0u) { return vec4<f32>(1.0); }
    let p = param_elem(pbase, e);
    if (PACK == 1u || L.pelem_div != 1u) { return vec4<f32>(w_at(p)); }
    return W[p >> 2u];
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let s = linear_workgroup(wid);
    if (s >= L.stat_count) { return; }  // uniform: the same for the whole workgroup
    let lane = lid.x;
    let base = s * L.stat_stride;
    let st = STATS[s];
    let pbase = param_base(s);
    var xh: array<vec4<f32>, VPT>;  // x̂ of access j, 0 past PACK and past the statistic's end
    var gv: array<vec4<f32>, VPT>;  // g = dy·γ of access j
    var a = vec4<f32>(0.0);
    var b = vec4<f32>(0.0);
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = (j * WG + lane) * PACK;
        var xv = vec4<f32>(0.0);
        var g = vec4<f32>(0.0);
        if (e < L.count) {
            let i = element_offset(base, e) / PACK;
            let x = xe_to4(X[i]);
            if (RMS) {
                xv = x * st.w;
            } else {
                xv = ((x - st.x) - st.y) * st.w * PACK_MASK;
            }
            g = xe_to4(DY[i]) * gamma4(pbase, e);
        }
        xh[j] = xv;
        gv[j] = g;
        a = a + g;
        b = b + g * xv;
    }
    let n = f32(L.count);
    let mean_g = workgroup_sum(lane, (a.x + a.y) + (a.z + a.w)) / n;
    let mean_gx = workgroup_sum(lane, (b.x + b.y) + (b.z + b.w)) / n;
    var mg = mean_g;
    if (RMS) { mg = 0.0; }
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = (j * WG + lane) * PACK;
        if (e < L.count) {
            Y[element_offset(base, e) / PACK] = xe_from4(st.w * (gv[j] - mg - xh[j] * mean_gx));
        }
    }
    if (lane == 0u) { GRAD[s] = vec4<f32>(mean_g, mean_gx, n, 0.0); }
}
