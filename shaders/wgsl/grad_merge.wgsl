// Adds up the partials of grad_reduce.wgsl (after grad_common.wgsl), one invocation per group of
// the bound layout, as shaders/grad_merge.comp:
//   statistics pass: GRAD[s] = (Σg/n, Σg·x̂/n, n, 0), what grad_apply.wgsl needs (CHUNK_GAMMA: the
//   partials hold Σdy and Σdy·x̂ of chunks with one γ each, multiplied by that γ here);
//   γ/β pass (PARAM_PASS; also the ROWS partials of grad_fused, grad_looped and grad_apply, L.chunks
//   of them per γ/β index): GRAD[p] = (Σdy, Σdy·x̂, n, 0) = (∂L/∂β, ∂L/∂γ);
//   FROM_STATS: the same GRAD[p] from the statistics' partials (L.chunks per statistic), with no pass
//   over x and dy: γ/β index p = g·pstat_mul + k collects chunks [k·c, (k + 1)·c) (c = L.gstat_seg_mul,
//   chunks per γ) of the L.gstat_p_div statistics g + j·pstat_mod (L.stat_count: the γ/β indices).

fn from_stats(p: u32) -> vec3<f32> {
    let mul = max(L.pstat_mul, 1u);
    let g = p / mul;
    let c0 = (p - g * mul) * L.gstat_seg_mul;
    var t = vec3<f32>(0.0);
    for (var j = 0u; j < L.gstat_p_div; j = j + 1u) {
        let row = (g + j * L.pstat_mod) * L.chunks;
        for (var c = c0; c < c0 + L.gstat_seg_mul; c = c + 1u) { t = t + PARTIALS[row + c].xyz; }
    }
    return t;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let s = linear_workgroup(wid) * 64u + lid.x;
    if (s >= L.stat_count) { return; }
    if (FROM_STATS) {
        GRAD[s] = vec4<f32>(from_stats(s), 0.0);
        return;
    }
    var t = vec3<f32>(0.0);
    for (var c = 0u; c < L.chunks; c = c + 1u) {
        var gamma = 1.0;
        if (CHUNK_GAMMA && !PARAM_PASS) { gamma = grad_gamma(s, c * L.chunk_len); }
        let p = PARTIALS[s * L.chunks + c];
        t = t + vec3<f32>(gamma * p.x, gamma * p.y, p.z);
    }
    if (PARAM_PASS) {
        GRAD[s] = vec4<f32>(t, 0.0);
    } else {
        GRAD[s] = vec4<f32>(t.x / t.z, t.y / t.z, t.z, 0.0);
    }
}
