// Split statistics kernel (after norm_common.wgsl; norm_welford.wgsl follows), for statistics
// longer than one workgroup holds in registers: workgroup o owns chunk (o % chunks) of statistic
// (o / chunks), up to VPT accesses of PACK elements per invocation, and writes its partial
// (n, mean of x−K, M2 = Σ(x−K−mean)², non-finite flags) for norm_merge.wgsl.
// K is the statistic's first element (STATS[s].x, written by the host). RMS: no shift; the
// partial's mean is the mean square (its M2 stays 0).

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let owner = linear_workgroup(wid);
    if (owner >= L.stat_count * L.chunks) { return; }  // uniform: the same for the whole workgroup
    let lane = lid.x;
    let c = chunk_of(owner);  // chunk_len = WG·VPT·PACK elements
    var K = 0.0;
    if (!RMS) { K = STATS[c.s].x; }
    let m = workgroup_welford(c.s * L.stat_stride, K, c.e0, c.e1, lane);
    if (lane == 0u) { PARTIALS[owner] = m; }
}
