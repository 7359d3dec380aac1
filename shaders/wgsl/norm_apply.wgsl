// Elementwise normalization with finished statistics (after norm_common.wgsl):
// y = γ·((x − K) − mean)·rstd + β (RMS: y = γ·x·rstd). Runs after norm_merge.wgsl, and alone for
// BatchNorm in eval mode, where the host wrote the running statistics. Workgroup w handles chunk
// (w % chunks) of statistic (w / chunks); VPT accesses of PACK elements per invocation.

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let w = linear_workgroup(wid);
    if (w >= L.stat_count * L.chunks) { return; }
    let c = chunk_of(w);
    let s = c.s;
    let base = s * L.stat_stride;
    let st = STATS[s];
    let pbase = param_base(s);
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = c.e0 + (j * WG + lid.x) * PACK;
        if (e < c.e1) { write_y(base, e, st, pbase); }
    }
}
