#version 450
// Statistics kernel for every method: workgroup w reduces chunk (w % chunks) of statistic
// (w / chunks). Each invocation keeps VPT values in registers, so x is read once:
//   K = x[first element of the statistic] (a shift that keeps float32 sums exact for
//   data far from 0), mean = Σ(x−K)/n, M2 = Σ(x−K−mean)² (an exact two-pass on registers).
// FUSED (one chunk per statistic): also writes the statistic and y = γ·(x−K−mean)·rstd + β.
// Otherwise: writes a partial (n, mean, M2) that norm_merge.comp combines (Chan's formula).
// RMS: no shift and no centering; the statistic is mean(x²) and y = γ·x·rstd.
layout(local_size_x_id = 0) in;
#include "workgroup_sum.glsl"
#include "norm_common.glsl"

layout(constant_id = 1) const uint VPT = 8;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool FUSED = true;

void main() {
    uint wg = linear_workgroup();
    if (wg >= pc.stat_count * pc.chunks) return;  // uniform for the whole workgroup
    uint s = wg / pc.chunks;
    uint chunk = wg - s * pc.chunks;
    uint e0 = chunk * pc.chunk_len;
    uint e1 = min(e0 + pc.chunk_len, pc.count);
    uint base = s * pc.stat_stride;
    uint tid = gl_LocalInvocationID.x;
    uint wgsize = gl_WorkGroupSize.x;

    float K = RMS ? 0.0 : X[base];
    float v[VPT];
    uint off[VPT];
    float acc = 0.0;
    for (uint j = 0u; j < VPT; ++j) {
        uint e = e0 + j * wgsize + tid;
        v[j] = 0.0;
        off[j] = 0u;
        if (e < e1) {
            off[j] = element_offset(base, e);
            v[j] = X[off[j]] - K;
            acc += RMS ? v[j] * v[j] : v[j];
        }
    }
    float n = float(e1 - e0);
    float mean = wg_sum_a(acc) / n;  // RMS: mean square

    float m2 = 0.0;
    if (!RMS) {
        float dev = 0.0;
        for (uint j = 0u; j < VPT; ++j) {
            uint e = e0 + j * wgsize + tid;
            if (e < e1) {
                float d = v[j] - mean;
                dev += d * d;
            }
        }
        m2 = wg_sum_b(dev);
    }

    if (FUSED) {
        float var = RMS ? mean : m2 / n;  // M2 is a sum of squares: never negative, NaN stays NaN
        float rstd = 1.0 / sqrt(var + pc.eps);
        for (uint j = 0u; j < VPT; ++j) {
            uint e = e0 + j * wgsize + tid;
            if (e < e1) {
                float xhat = RMS ? v[j] * rstd : (v[j] - mean) * rstd;
                Y[off[j]] = affine(xhat, off[j]);
            }
        }
        if (tid == 0u) STATS[s] = RMS ? vec4(0.0, 0.0, var, rstd) : vec4(K, mean, var, rstd);
    } else if (tid == 0u) {
        PARTIALS[wg] = vec4(n, mean, m2, 0.0);
    }
}
