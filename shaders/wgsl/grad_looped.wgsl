// Looped backward (after grad_common.wgsl) for statistics too long for grad_fused.wgsl's registers,
// as shaders/grad_looped.comp without its subgroup owners: a workgroup owns whole statistics and
// walks each twice. The first loop reads x and dy and reduces Σg and Σg·x̂ (g = dy·γ); the second
// reads the same elements again (from the cache the first one filled), in tiles of VPT elements per
// lane, and writes ∂L/∂x = rstd·(g − mean g − x̂·mean g·x̂) (RMS: no mean g term); lane 0 writes
// GRAD[s] = (mean g, mean g·x̂, n, 0): no partials of the statistics, no merge pass. One float per
// access (pack1.wgsl). Workgroup o owns statistic o, or with ROWS the L.gstat_seg_mul (at most
// MAX_ROWS) statistics from o·L.gstat_seg_mul: the first loop runs statistic by statistic, the
// second tile by tile over all of them; where a statistic fits one tile, its two loops run back to back.
// ∂L/∂γ, ∂L/∂β as grad_fused.wgsl: ONE_GAMMA: PARTIALS[s] = (Σdy, Σdy·x̂, n, 0); ROWS: per element
// e, Σdy and Σdy·x̂ over the workgroup's statistics as PARTIALS[e·L.gstat_p_div + o]; RUN_GAMMA
// (GroupNorm with a γ per channel, a run of L.pelem_div elements of the statistic): the first loop
// walks the statistic run by run and writes PARTIALS[s·L.chunks + r] = (Σdy, Σdy·x̂, n, 0) of run r
// (L.chunks: runs per statistic); grad_merge.wgsl FROM_STATS adds them up per γ/β index.
// workgroup_sum: workgroup_sum.wgsl (the host appends it)

const MAX_ROWS: u32 = 64u;  // kGradLoopedMaxRows (normlab/core/backward_plan.hpp)
const SUM_GAMMA: bool = ONE_GAMMA || RUN_GAMMA;  // the first loop reads no γ: each run's sums get it

var<private> means: array<vec2<f32>, MAX_ROWS>;  // (mean g, mean g·x̂) of the owner's statistics
var<private> pa: array<f32, VPT>;  // ROWS: Σdy of the tile's elements over the statistics
var<private> pb: array<f32, VPT>;  // ROWS: Σdy·x̂

// The first loop over statistic s (the owner's i-th): its sums, means and ONE_GAMMA / RUN_GAMMA
// partials. A run has one γ (RUN_GAMMA: a channel; otherwise the whole statistic is one run).
fn reduce_statistic(s: u32, i: u32, lane: u32) {
    let base = s * L.stat_stride;
    let st = STATS[s];
    var run = L.count;
    if (RUN_GAMMA) { run = L.pelem_div; }
    var ta = 0.0;
    var tb = 0.0;
    var r = 0u;
    for (var r0 = 0u; r0 < L.count; r0 = r0 + run) {
        var a = 0.0;
        var b = 0.0;
        for (var e = r0 + lane; e < r0 + run; e = e + WG) {
            let o = element_offset(base, e);
            var g = DY[o];
            if (!SUM_GAMMA) { g = g * grad_gamma(s, e); }
            a = a + g;
            b = b + g * grad_xhat(X[o], st);
        }
        a = workgroup_sum(lane, a);
        b = workgroup_sum(lane, b);
        var gs = 1.0;
        if (SUM_GAMMA) { gs = grad_gamma(s, r0); }
        ta = ta + gs * a;
        tb = tb + gs * b;
        if (SUM_GAMMA && lane == 0u) { PARTIALS[s * L.chunks + r] = vec4<f32>(a, b, f32(run), 0.0); }
        r = r + 1u;
    }
    let n = f32(L.count);
    means[i] = vec2<f32>(ta / n, tb / n);
    if (lane == 0u) { GRAD[s] = vec4<f32>(ta / n, tb / n, n, 0.0); }
}

// The second loop's tile from element t0 of statistic s (the owner's i-th): ∂L/∂x; the ROWS sums
// gain its dy and dy·x̂.
fn apply_tile(s: u32, i: u32, t0: u32, lane: u32) {
    let base = s * L.stat_stride;
    let st = STATS[s];
    var gs = 1.0;
    if (ONE_GAMMA) { gs = grad_gamma(s, 0u); }
    var mg = means[i].x;
    if (RMS) { mg = 0.0; }
    let mgx = means[i].y;
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = t0 + j * WG + lane;
        if (e >= L.count) { break; }
        let o = element_offset(base, e);
        let dy = DY[o];
        let xh = grad_xhat(X[o], st);
        var g = dy * gs;
        if (!ONE_GAMMA) { g = dy * grad_gamma(s, e); }
        Y[o] = st.w * (g - mg - xh * mgx);
        if (ROWS) {
            pa[j] = pa[j] + dy;
            pb[j] = pb[j] + dy * xh;
        }
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let owner = linear_workgroup(wid);
    let lane = lid.x;
    var per = 1u;
    if (ROWS) { per = L.gstat_seg_mul; }
    let s0 = owner * per;
    if (s0 >= L.stat_count) { return; }  // uniform: the same for the whole workgroup
    let s1 = min(s0 + per, L.stat_count);
    let tile = VPT * WG;
    // A statistic within one tile: its two loops back to back (the second read from the nearest cache).
    let one_tile = L.count <= tile;
    if (!one_tile) {
        for (var s = s0; s < s1; s = s + 1u) { reduce_statistic(s, s - s0, lane); }
    }
    for (var t0 = 0u; t0 < L.count; t0 = t0 + tile) {
        for (var j = 0u; j < VPT; j = j + 1u) {
            pa[j] = 0.0;
            pb[j] = 0.0;
        }
        for (var s = s0; s < s1; s = s + 1u) {
            if (one_tile) { reduce_statistic(s, s - s0, lane); }
            apply_tile(s, s - s0, t0, lane);
        }
        if (!ROWS) { continue; }
        for (var j = 0u; j < VPT; j = j + 1u) {
            let e = t0 + j * WG + lane;
            if (e >= L.count) { break; }
            PARTIALS[e * L.gstat_p_div + owner] = vec4<f32>(pa[j], pb[j], f32(s1 - s0), 0.0);
        }
    }
}
