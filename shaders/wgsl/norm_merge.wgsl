// Merges the per-chunk partials of each statistic (after norm_common.wgsl) with Chan's parallel
// formula (norm_common.wgsl's chan). One workgroup of 64 per statistic: each invocation merges a
// strided share of the partials, a tree merges the shares.

var<workgroup> shares: array<vec4<f32>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let s = linear_workgroup(wid);
    if (s >= L.stat_count) { return; }  // uniform: the same for the whole workgroup
    let lane = lid.x;
    var t = vec4<f32>(0.0);
    for (var c = lane; c < L.chunks; c = c + 64u) { t = chan(t, PARTIALS[s * L.chunks + c]); }
    shares[lane] = t;
    workgroupBarrier();  // every share stored before the tree reads it
    for (var width = 32u; width > 0u; width = width / 2u) {
        if (lane < width) { shares[lane] = chan(shares[lane], shares[lane + width]); }
        workgroupBarrier();  // this level's merges written before the next level reads them
    }
    if (lane == 0u) {
        let m = shares[0];
        var K = 0.0;
        if (!RMS) { K = STATS[s].x; }  // the shift the partials were taken with
        STATS[s] = finish_stat(K, m.x, m.y, m.z, u32(m.w));
    }
}
