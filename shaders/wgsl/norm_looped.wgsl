// Looped statistics kernel (after norm_common.wgsl; norm_welford.wgsl follows), for statistics
// longer than one workgroup holds in registers on adapters where an invocation costs more than a
// loop iteration (CPU-emulated ones: WgpuNormalizer::plan): workgroup s owns statistic s, walks
// all of it (short shifted sums merged with Chan's formula: norm_welford.wgsl), finishes the
// statistic, then walks it again to write y (looped_y), as norm_apply.wgsl does. One pass: x read
// twice, y written once, no partials.
// K is the statistic's first element (STATS[s].x, written by the host).

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let s = linear_workgroup(wid);
    if (s >= L.stat_count) { return; }  // uniform: the same for the whole workgroup
    let lane = lid.x;
    let base = s * L.stat_stride;
    var K = 0.0;
    if (!RMS) { K = STATS[s].x; }
    let m = workgroup_welford(base, K, 0u, L.count, lane);
    let st = finish_stat(K, m.x, m.y, m.z, u32(m.w));
    looped_y(base, st, param_base(s), lane);
    if (lane == 0u) { STATS[s] = st; }
}

// x̂ of the PACK elements x from their finite statistic st (K, mean, var, rstd), as normalized4.
fn xhat4(x: vec4<f32>, st: vec4<f32>) -> vec4<f32> {
    if (RMS) { return x * st.w; }
    return ((x - st.x) - st.y) * st.w;
}

// y of the statistic at base from its finished statistic st and param_base pbase. The usual
// cases run without a test per access: a finite statistic (so every x is finite) whose γ/β are
// one per element of one run (layer, rms), or constant along runs of rl elements (batch: its
// segments; group: a channel's H·W; none: the whole statistic). The rest go through write_y.
// The same operations as normalized4 and affine4, in the same order.
fn looped_y(base: u32, st: vec4<f32>, pbase: u32, lane: u32) {
    let finite = st.w != 0.0 && nonfinite_flag(st.w) == 0u;
    let hw = L.has_w != 0u;
    let hb = L.has_b != 0u;
    let affine = hw || hb;
    if (finite && PACK == 4u && affine && L.pelem_div == 1u && L.segmented == 0u) {
        let x4 = base / 4u;
        let p4 = pbase / 4u;  // a multiple of 4 (vec4_runs)
        let sp = lane_span(L.count, lane);
        let j0 = sp.x / 4u;
        let n4 = sp.y / 4u;
        if (!hb) {  // γ only (rms): no read of β
            for (var j = j0; j < n4; j = j + LANE_SPAN) {
                Y[x4 + j] = xe_from4(xhat4(xe_to4(X[x4 + j]), st) * W[p4 + j]);
            }
            return;
        }
        if (hw) {  // γ and β (layer)
            for (var j = j0; j < n4; j = j + LANE_SPAN) {
                Y[x4 + j] = xe_from4(xhat4(xe_to4(X[x4 + j]), st) * W[p4 + j] + B[p4 + j]);
            }
            return;
        }
        for (var j = j0; j < n4; j = j + LANE_SPAN) { Y[x4 + j] = xe_from4(xhat4(xe_to4(X[x4 + j]), st) + B[p4 + j]); }
        return;
    }
    if (finite && (!affine || L.pelem_div == 0u || (L.pelem_div > 1u && L.segmented == 0u))) {
        var rl = L.segment_len;  // the whole statistic when it is not segmented
        var rs = L.segment_stride;
        if (affine && L.pelem_div > 1u) {
            rl = L.pelem_div;  // γ/β index pbase + e / pelem_div: pbase + r along run r
            rs = rl;
        }
        let runs = L.count / rl;
        for (var r = 0u; r < runs; r = r + 1u) {
            var p = pbase;
            if (L.pelem_div > 1u) { p = pbase + r; }
            var w = 1.0;
            var b = 0.0;
            if (hw) { w = w_at(p); }
            if (hb) { b = b_at(p); }
            let off = base + r * rs;
            let sp = lane_span(rl, lane);
            for (var j = sp.x; j < sp.y; j = j + LANE_SPAN * PACK) {
                let i = (off + j) / PACK;
                let h = xhat4(xe_to4(X[i]), st);
                let yw = select(h, h * w, hw);
                Y[i] = xe_from4(select(yw, yw + b, hb));
            }
        }
        return;
    }
    let sp = lane_span(L.count, lane);
    for (var e = sp.x; e < sp.y; e = e + LANE_SPAN * PACK) { write_y(base, e, st, pbase); }
}
