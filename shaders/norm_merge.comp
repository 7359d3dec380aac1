#version 450
// Merges the per-chunk partials of each statistic (one invocation per statistic) with
// Chan's parallel formula: n = na + nb, δ = mb − ma, mean = ma + δ·nb/n,
// M2 = M2a + M2b + δ²·na·nb/n. RMS: the count-weighted average of the mean squares.
#include "norm_common.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool RMS = false;

void main() {
    uint s = linear_workgroup() * 64u + gl_LocalInvocationID.x;
    if (s >= pc.slab_stats) return;
    float n = 0.0, mean = 0.0, m2 = 0.0;
    for (uint c = 0u; c < pc.chunks_total; ++c) {
        vec4 p = PARTIALS[s * pc.chunks_total + c];
        float nb = p.x;
        if (nb == 0.0) continue;
        float nn = n + nb;
        float delta = p.y - mean;
        mean += delta * (nb / nn);
        m2 += RMS ? 0.0 : p.z + delta * delta * (n * nb / nn);
        n = nn;
    }
    float var = RMS ? mean : m2 / n;  // M2 is a sum of squares: never negative, NaN stays NaN
    float rstd = 1.0 / sqrt(var + pc.eps);
    float K = RMS ? 0.0 : STATS[s].x;  // the shift the partials were taken with
    STATS[s] = RMS ? vec4(0.0, 0.0, var, rstd) : vec4(K, mean, var, rstd);
}
