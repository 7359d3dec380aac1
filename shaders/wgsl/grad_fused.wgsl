// Fused backward (after grad_common.wgsl) where the forward's plan fuses (a statistic fits one
// workgroup's registers), as shaders/grad_fused.comp without its subgroup owners: a workgroup reads
// each of its statistics' x and dy once into registers (VPT accesses of PACK elements per
// invocation), reduces Σg and Σg·x̂ (g = dy·γ), writes GRAD[s] = (mean g, mean g·x̂, n, 0) and
// ∂L/∂x = rstd·(g − mean g − x̂·mean g·x̂) (RMS: no mean g term) in the same kernel. Workgroup o owns
// statistic o, or with ROWS the L.gstat_seg_mul statistics from o·L.gstat_seg_mul.
// ∂L/∂γ, ∂L/∂β without a second pass over x and dy:
//   ONE_GAMMA (one γ per statistic): PARTIALS[s] = (Σdy, Σdy·x̂, n, 0), added up per γ/β index by
//   grad_merge.wgsl FROM_STATS;
//   ROWS (layer/rms, one γ per element): per element e, Σdy and Σdy·x̂ over the workgroup's
//   statistics as PARTIALS[e·L.gstat_p_div + o], added up by grad_merge.wgsl (PARAM_PASS).
// Otherwise they come from the γ/β pass (grad_reduce.wgsl PARAM_PASS) after it.
// workgroup_sum: workgroup_sum.wgsl (the host appends it)

// γ of the PACK elements from e (1 without a weight): one γ, or per element 4 consecutive ones.
fn gamma4(pbase: u32, e: u32) -> vec4<f32> {
    if (L.has_w == 0u || ONE_GAMMA) { return vec4<f32>(1.0); }  // ONE_GAMMA: γ applied to the sums
    let p = param_elem(pbase, e);
    if (PACK == 1u || L.pelem_div != 1u) { return vec4<f32>(w_at(p)); }
    return W[p >> 2u];
}

var<private> xh: array<vec4<f32>, VPT>;  // x̂ of access j, 0 past PACK and past the statistic's end
var<private> dyv: array<vec4<f32>, VPT>;  // dy of access j
var<private> pa: array<vec4<f32>, VPT>;  // ROWS: Σdy of access j's elements over the statistics
var<private> pb: array<vec4<f32>, VPT>;  // ROWS: Σdy·x̂

// Statistic s: loads, sums, means and ∂L/∂x; the ROWS sums gain its dy and dy·x̂.
fn statistic(s: u32, lane: u32) {
    let base = s * L.stat_stride;
    let st = STATS[s];
    let pbase = param_base(s);
    var a = vec4<f32>(0.0);
    var b = vec4<f32>(0.0);
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = (j * WG + lane) * PACK;
        var xv = vec4<f32>(0.0);
        var d = vec4<f32>(0.0);
        if (e < L.count) {
            let i = element_offset(base, e) / PACK;
            let x = xe_to4(X[i]);
            if (RMS) {
                xv = x * st.w;
            } else {
                xv = ((x - st.x) - st.y) * st.w * PACK_MASK;
            }
            d = xe_to4(DY[i]);
        }
        xh[j] = xv;
        dyv[j] = d;
        let g = d * gamma4(pbase, e);
        a = a + g;
        b = b + g * xv;
    }
    let n = f32(L.count);
    let sa = workgroup_sum(lane, (a.x + a.y) + (a.z + a.w));
    let sb = workgroup_sum(lane, (b.x + b.y) + (b.z + b.w));
    var gs = 1.0;  // ONE_GAMMA: the statistic's γ
    if (ONE_GAMMA) { gs = grad_gamma(s, 0u); }
    let mean_g = gs * sa / n;
    let mean_gx = gs * sb / n;
    var mg = mean_g;
    if (RMS) { mg = 0.0; }
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = (j * WG + lane) * PACK;
        if (e < L.count) {
            let g = dyv[j] * gs * gamma4(pbase, e);
            Y[element_offset(base, e) / PACK] = xe_from4(st.w * (g - mg - xh[j] * mean_gx));
            if (ROWS) {
                pa[j] = pa[j] + dyv[j];
                pb[j] = pb[j] + dyv[j] * xh[j];
            }
        }
    }
    if (lane == 0u) {
        GRAD[s] = vec4<f32>(mean_g, mean_gx, n, 0.0);
        if (ONE_GAMMA) { PARTIALS[s] = vec4<f32>(sa, sb, n, 0.0); }
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let owner = linear_workgroup(wid);
    var per = 1u;
    if (ROWS) { per = L.gstat_seg_mul; }
    let s0 = owner * per;
    if (s0 >= L.stat_count) { return; }  // uniform: the same for the whole workgroup
    let s1 = min(s0 + per, L.stat_count);
    for (var s = s0; s < s1; s = s + 1u) { statistic(s, lid.x); }
    if (!ROWS) { return; }
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = (j * WG + lid.x) * PACK;
        if (e < L.count) {
            for (var k = 0u; k < PACK; k = k + 1u) {
                PARTIALS[(e + k) * L.gstat_p_div + owner] = vec4<f32>(pa[j][k], pb[j][k], f32(s1 - s0), 0.0);
            }
        }
    }
}
