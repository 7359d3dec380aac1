#version 450
// Statistics kernel for every method. Each invocation keeps VPT packs (vec4s when VEC4, else
// single floats) in registers, so x is read once: K = x[first element of the statistic] (a
// shift that keeps float32 sums exact for data far from 0), mean = Σ(x−K)/n,
// M2 = Σ(x−K−mean)² (an exact two-pass on registers).
//
// SUBGROUP_STATS: each subgroup owns whole statistics (count ≤ subgroup size × VPT × pack),
//   reduces with subgroupAdd alone (no barrier) and writes the statistic and y.
// Otherwise workgroup w reduces chunk (w % chunks) of statistic (w / chunks):
//   FUSED (one chunk per statistic): also writes the statistic and y = γ·(x−K−mean)·rstd + β;
//   else writes a partial (n, mean, M2) that norm_merge.comp combines (Chan's formula).
// RMS: no shift and no centering; the statistic is mean(x²) and y = γ·x·rstd.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 8;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool FUSED = true;
layout(constant_id = 4) const bool SUBGROUP_STATS = false;
layout(constant_id = 5) const bool VEC4 = false;
#include "workgroup_sum.glsl"
#include "norm_common.glsl"

const uint PACK = VEC4 ? 4u : 1u;
const vec4 ONES = vec4(1.0);
const vec4 FIRST = vec4(1.0, 0.0, 0.0, 0.0);

vec4 v[VPT];
uint off[VPT];

// Loads this invocation's packs q = q0 + j·stride + lane (q < q1, in packs) shifted by K;
// returns Σ(x−K) (RMS: Σx²).
float load(uint base, float K, uint q0, uint q1, uint stride, uint lane) {
    float acc = 0.0;
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * stride + lane;
        v[j] = vec4(0.0);
        off[j] = 0u;
        if (q < q1) {
            off[j] = element_offset(base, q * PACK);
            v[j] = VEC4 ? X4[off[j] >> 2] - K : vec4(X[off[j]] - K, 0.0, 0.0, 0.0);
            acc += RMS ? dot(v[j], v[j]) : dot(v[j], ONES);
        }
    }
    return acc;
}

float deviations(float mean, uint q0, uint q1, uint stride, uint lane) {
    float dev = 0.0;
    for (uint j = 0u; j < VPT; ++j) {
        if (q0 + j * stride + lane < q1) {
            vec4 d = (v[j] - mean) * (VEC4 ? ONES : FIRST);
            dev += dot(d, d);
        }
    }
    return dev;
}

// Writes y for this invocation's packs and returns the statistic's (K, mean, var, rstd).
vec4 finish(uint s, float K, float mean, float m2, float n, uint q0, uint q1, uint stride, uint lane) {
    float var = RMS ? mean : m2 / n;  // M2 is a sum of squares: never negative, NaN stays NaN
    float rstd = 1.0 / sqrt(var + pc.eps);
    uint pbase = param_base(s);
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * stride + lane;
        if (q < q1) {
            vec4 xhat = RMS ? v[j] * rstd : (v[j] - mean) * rstd;
            vec4 y = affine(xhat, pbase, q * PACK, VEC4);
            if (VEC4) Y4[off[j] >> 2] = y;
            else Y[off[j]] = y.x;
        }
    }
    return RMS ? vec4(0.0, 0.0, var, rstd) : vec4(K, mean, var, rstd);
}

void main() {
    uint wg = linear_workgroup();
    uint packs = pc.count / PACK;  // VEC4 layouts have counts that are multiples of 4
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_STATS) {
        uint s = wg * gl_NumSubgroups + gl_SubgroupID;
        if (s >= pc.stat_count) return;  // uniform within the subgroup; no barriers follow
        uint lane = gl_SubgroupInvocationID;
        uint base = s * pc.stat_stride;
        float K = RMS ? 0.0 : X[base];
        float n = float(pc.count);
        float mean = subgroupAdd(load(base, K, 0u, packs, gl_SubgroupSize, lane)) / n;
        float m2 = RMS ? 0.0 : subgroupAdd(deviations(mean, 0u, packs, gl_SubgroupSize, lane));
        vec4 st = finish(s, K, mean, m2, n, 0u, packs, gl_SubgroupSize, lane);
        if (subgroupElect()) STATS[s] = st;
        return;
    }
#endif
    if (wg >= pc.stat_count * pc.chunks) return;  // uniform for the whole workgroup
    uint s = wg / pc.chunks;
    uint chunk = wg - s * pc.chunks;
    uint q0 = chunk * (pc.chunk_len / PACK);
    uint q1 = min(q0 + pc.chunk_len / PACK, packs);
    uint base = s * pc.stat_stride;
    uint tid = gl_LocalInvocationID.x;
    uint wgsize = gl_WorkGroupSize.x;

    float K = RMS ? 0.0 : X[base];
    float n = float((q1 - q0) * PACK);
    float mean = wg_sum_a(load(base, K, q0, q1, wgsize, tid)) / n;  // RMS: mean square
    float m2 = RMS ? 0.0 : wg_sum_b(deviations(mean, q0, q1, wgsize, tid));

    if (FUSED) {
        vec4 st = finish(s, K, mean, m2, n, q0, q1, wgsize, tid);
        if (tid == 0u) STATS[s] = st;
    } else if (tid == 0u) {
        PARTIALS[wg] = vec4(n, mean, m2, 0.0);
    }
}
