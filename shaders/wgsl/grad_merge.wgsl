// Adds up the partials of grad_reduce.wgsl (after grad_common.wgsl), one invocation per group of
// the bound layout, as shaders/grad_merge.comp:
//   statistics pass: GRAD[s] = (Σg/n, Σg·x̂/n, n, 0), what grad_apply.wgsl needs;
//   γ/β pass (PARAM_PASS): GRAD[p] = (Σdy, Σdy·x̂, n, 0) = (∂L/∂β, ∂L/∂γ).

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let s = linear_workgroup(wid) * 64u + lid.x;
    if (s >= L.stat_count) { return; }
    var t = vec3<f32>(0.0);
    for (var c = 0u; c < L.chunks; c = c + 1u) { t = t + PARTIALS[s * L.chunks + c].xyz; }
    if (PARAM_PASS) {
        GRAD[s] = vec4<f32>(t, 0.0);
    } else {
        GRAD[s] = vec4<f32>(t.x / t.z, t.y / t.z, t.z, 0.0);
    }
}
