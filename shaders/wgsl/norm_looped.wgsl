// Looped statistics kernel (after norm_common.wgsl; norm_welford.wgsl follows), for statistics
// longer than one workgroup holds in registers on adapters where an invocation costs more than a
// loop iteration (CPU-emulated ones: WgpuNormalizer::plan): workgroup s owns statistic s, walks
// all of it with Welford's update (norm_welford.wgsl), finishes the statistic, then walks it again
// to write y, as norm_apply.wgsl does. One pass: x read twice, y written once, no partials.
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
    let pbase = param_base(s);
    for (var e = lane * PACK; e < L.count; e = e + WG * PACK) { write_y(base, e, st, pbase); }
    if (lane == 0u) { STATS[s] = st; }
}
