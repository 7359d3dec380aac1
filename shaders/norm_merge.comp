#version 450
// Merges the per-chunk partials of each statistic with Chan's parallel formula:
// n = na + nb, δ = mb − ma, mean = ma + δ·nb/n, M2 = M2a + M2b + δ²·na·nb/n.
// RMS: the count-weighted average of the mean squares.
// PER_WG = false: one invocation per statistic walks its few partials in order.
// PER_WG = true: one workgroup per statistic (statistics split into many chunks, where one
// invocation's walk would wait on one load after another): each invocation merges a strided
// share of the partials, then a shared-memory tree merges the 64 shares.
#include "norm_common.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool RMS = false;
layout(constant_id = 1) const bool PER_WG = false;

shared vec3 share[64];

vec3 chan(vec3 a, vec3 b) { return chan_merge(a, b, RMS); }

void finish(uint s, vec3 t) {
    float var = RMS ? t.y : t.z / t.x;  // M2 is a sum of squares: never negative, NaN stays NaN
    float rstd = 1.0 / sqrt(var + pc.eps);
    float K = RMS ? 0.0 : STATS[s].x;  // the shift the partials were taken with
    STATS[s] = RMS ? vec4(0.0, 0.0, var, rstd) : vec4(K, t.y, var, rstd);
}

void main() {
    uint s = PER_WG ? linear_workgroup() : linear_workgroup() * 64u + gl_LocalInvocationID.x;
    if (s >= pc.slab_stats) return;  // PER_WG: uniform for the workgroup
    uint lane = PER_WG ? gl_LocalInvocationID.x : 0u, step = PER_WG ? 64u : 1u;
    vec3 t = vec3(0.0);
    for (uint c = lane; c < pc.chunks_total; c += step) t = chan(t, PARTIALS[s * pc.chunks_total + c].xyz);
    if (!PER_WG) {
        finish(s, t);
        return;
    }
    share[lane] = t;
    barrier();  // every invocation's share is stored before the tree reads it
    for (uint half_ = 32u; half_ > 0u; half_ >>= 1u) {
        if (lane < half_) share[lane] = chan(share[lane], share[lane + half_]);
        barrier();  // this level's merges are written before the next level reads them
    }
    if (lane == 0u) finish(s, share[0]);
}
