#version 450
// Adds up the partials of grad_reduce.comp (one invocation per group of the bound layout):
// MEAN (statistics pass): GRAD[s] = (Σg/n, Σg·x̂/n), what grad_apply.comp needs (CHUNK_GAMMA:
// the partials hold Σdy and Σdy·x̂ of chunks with one γ each, multiplied by that γ here);
// else (γ/β pass, or grad_fused.comp's per-element partials): GRAD[p] = (Σdy, Σdy·x̂) = (∂L/∂β, ∂L/∂γ);
// FROM_STATS (CHUNK_GAMMA): the same GRAD[p] from the statistics pass's partials, with no
// second pass over x and dy. γ/β index p = g·pstat_mul + k collects chunks [k·e_lo, (k+1)·e_lo)
// (e_lo = chunks per γ) of the e_hi statistics g + j·pstat_mod.
#include "norm_common.glsl"
#include "grad_common.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool MEAN = true;
layout(constant_id = 1) const bool FROM_STATS = false;
layout(constant_id = 2) const bool CHUNK_GAMMA = false;

void main() {
    uint s = linear_workgroup() * 64u + gl_LocalInvocationID.x;
    if (s >= pc.slab_stats) return;
    float a = 0.0, b = 0.0, n = 0.0;
    if (FROM_STATS) {
        uint mul = max(pc.pstat_mul, 1u), g = s / mul, c0 = (s - g * mul) * pc.e_lo;
        for (uint j = 0u; j < pc.e_hi; ++j) {
            uint row = (g + j * pc.pstat_mod) * pc.chunks_total;
            for (uint c = c0; c < c0 + pc.e_lo; ++c) {
                vec4 p = PARTIALS[row + c];
                a += p.x;
                b += p.y;
                n += p.z;
            }
        }
        GRAD[s] = vec4(a, b, n, 0.0);
        return;
    }
    uint pbase = param_base(s);
    for (uint c = 0u; c < pc.chunks_total; ++c) {
        vec4 p = PARTIALS[s * pc.chunks_total + c];
        float gamma = MEAN && CHUNK_GAMMA && HAS_W ? W[param_index(pbase, c * pc.chunk_len)] : 1.0;
        a += gamma * p.x;
        b += gamma * p.y;
        n += p.z;
    }
    GRAD[s] = MEAN ? vec4(a / n, b / n, n, 0.0) : vec4(a, b, n, 0.0);
}
