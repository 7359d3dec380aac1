#version 450
// Adds up the partials of grad_reduce.comp (one invocation per group of the bound layout):
// MEAN (statistics pass): GRAD[s] = (Σg/n, Σg·x̂/n), what grad_apply.comp needs;
// else (γ/β pass): GRAD[p] = (Σdy, Σdy·x̂) = (∂L/∂β, ∂L/∂γ).
#include "norm_common.glsl"
#include "grad_common.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool MEAN = true;

void main() {
    uint s = linear_workgroup() * 64u + gl_LocalInvocationID.x;
    if (s >= pc.slab_stats) return;
    float a = 0.0, b = 0.0, n = 0.0;
    for (uint c = 0u; c < pc.chunks_total; ++c) {
        vec4 p = PARTIALS[s * pc.chunks_total + c];
        a += p.x;
        b += p.y;
        n += p.z;
    }
    GRAD[s] = MEAN ? vec4(a / n, b / n, n, 0.0) : vec4(a, b, n, 0.0);
}
