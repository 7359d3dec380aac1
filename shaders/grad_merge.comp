#version 450
// Adds up the partials of grad_reduce.comp (one invocation per group of the bound layout):
// MEAN (statistics pass): GRAD[s] = (Σg/n, Σg·x̂/n), what grad_apply.comp needs (one γ per
// statistic, PARAM_MODE 0: the partials hold Σdy and Σdy·x̂, multiplied by γ here);
// else (γ/β pass): GRAD[p] = (Σdy, Σdy·x̂) = (∂L/∂β, ∂L/∂γ);
// FROM_STATS (batch, instance: PARAM_MODE 0): the same GRAD[p] from the statistics pass's
// partials, adding those of the e_hi statistics p + k·pstat_mod (no second pass over x and dy).
#include "norm_common.glsl"
#include "grad_common.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool MEAN = true;
layout(constant_id = 1) const bool FROM_STATS = false;

void main() {
    uint s = linear_workgroup() * 64u + gl_LocalInvocationID.x;
    if (s >= pc.slab_stats) return;
    float a = 0.0, b = 0.0, n = 0.0;
    if (FROM_STATS) {
        for (uint k = 0u; k < pc.e_hi; ++k) {
            uint row = (s + k * pc.pstat_mod) * pc.chunks_total;
            for (uint c = 0u; c < pc.chunks_total; ++c) {
                vec4 p = PARTIALS[row + c];
                a += p.x;
                b += p.y;
                n += p.z;
            }
        }
        GRAD[s] = vec4(a, b, n, 0.0);
        return;
    }
    for (uint c = 0u; c < pc.chunks_total; ++c) {
        vec4 p = PARTIALS[s * pc.chunks_total + c];
        a += p.x;
        b += p.y;
        n += p.z;
    }
    float gamma = MEAN && PARAM_MODE == 0u && HAS_W ? W[param_base(s)] : 1.0;
    GRAD[s] = MEAN ? vec4(gamma * a / n, gamma * b / n, n, 0.0) : vec4(a, b, n, 0.0);
}
