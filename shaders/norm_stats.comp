#version 450
// Statistics kernel for every method. Each invocation keeps VPT packs (vec4s when VEC4, else
// single floats) in registers, so x is read once: K = x[first element of the statistic] (a
// shift that keeps float32 sums exact for data far from 0), mean = Σ(x−K)/n,
// M2 = Σ(x−K−mean)² (an exact two-pass on registers).
//
// Owners are numbered within the current slab (see norm_common.glsl).
// A chunk of a statistic is owned by a subgroup (SUBGROUP_STATS: subgroupAdd alone, no
// barrier) or by a workgroup (subgroupAdd + shared memory, or a shared-memory tree). Owner o
// reduces chunk (o % chunks) of statistic (o / chunks):
//   FUSED (one chunk per statistic): also writes the statistic and y = γ·(x−K−mean)·rstd + β;
//   else writes a partial (n, mean, M2) that norm_merge.comp combines (Chan's formula);
//   LOOPED (split statistics, one owner per statistic): the owner walks its statistic in chunks
//   of chunk_len elements, merges their partials in order itself (Chan's formula, as
//   norm_merge.comp), writes the statistic and walks the same elements again to write y, the
//   second read from the cache that the first filled: no merge or apply kernel.
// RMS: no shift and no centering; the statistic is mean(x²) and y = γ·x·rstd.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 8;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool FUSED = true;
layout(constant_id = 4) const bool SUBGROUP_STATS = false;
layout(constant_id = 5) const bool VEC4 = false;
layout(constant_id = 6) const bool LOOPED = false;
#include "workgroup_sum.glsl"
#include "norm_common.glsl"

const uint PACK = VEC4 ? 4u : 1u;
const vec4 ONES = vec4(1.0);
const vec4 FIRST = vec4(1.0, 0.0, 0.0, 0.0);

vec4 v[VPT];
uint off[VPT];  // element offsets, kept only for segmented layouts (else recomputed: fewer registers)

// Loads this invocation's packs q = q0 + j·stride + lane (q < q1, in packs) shifted by K;
// returns Σ(x−K) (RMS: Σx²).
float load(uint base, float K, uint q0, uint q1, uint stride, uint lane) {
    float acc = 0.0;
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * stride + lane;
        v[j] = vec4(0.0);
        if (SEGMENTED) off[j] = 0u;
        if (q < q1) {
            uint o = element_offset(base, q * PACK);
            if (SEGMENTED) off[j] = o;
            v[j] = VEC4 ? X4[o >> 2] - K : vec4(X[o] - K, 0.0, 0.0, 0.0);
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
vec4 finish(uint s, uint base, float K, float mean, float m2, float n, uint q0, uint q1, uint stride, uint lane) {
    float var = RMS ? mean : m2 / n;  // M2 is a sum of squares: never negative, NaN stays NaN
    float rstd = 1.0 / sqrt(var + pc.eps);
    uint pbase = param_base(s);
    vec2 gb = stat_affine(pbase);
    float scale = rstd * gb.x;
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * stride + lane;
        if (q < q1) {
            vec4 xhat = (RMS ? v[j] : v[j] - mean) * scale + gb.y;
            vec4 y = affine(xhat, pbase, q * PACK, VEC4);
            uint o = SEGMENTED ? off[j] : base + q * PACK;
            if (VEC4) Y4[o >> 2] = y;
            else Y[o] = y.x;
        }
    }
    return RMS ? vec4(0.0, 0.0, var, rstd) : vec4(K, mean, var, rstd);
}

// The sum over this chunk's owner: its subgroup (SUBGROUP_STATS) or its workgroup.
float owner_sum_a(float x) {
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_STATS) return subgroupAdd(x);
#endif
    return wg_sum_a(x);
}
float owner_sum_b(float x) {
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_STATS) return subgroupAdd(x);
#endif
    return wg_sum_b(x);
}

void main() {
    // A chunk's owner: a subgroup (no barriers) or the whole workgroup.
    uint owner = linear_workgroup(), lane = gl_LocalInvocationID.x, lanes = gl_WorkGroupSize.x;
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_STATS) {
        owner = owner * gl_NumSubgroups + gl_SubgroupID;
        lane = gl_SubgroupInvocationID;
        lanes = gl_SubgroupSize;
    }
#endif
    if (owner >= pc.slab_stats * pc.chunks) return;  // uniform for the owner
    uint sl = owner / pc.chunks;
    uint chunk = owner - sl * pc.chunks;
    uint s = pc.stat_lo + sl;
    uint q0 = (pc.e_lo + chunk * pc.chunk_len) / PACK;  // e_lo and chunk_len are multiples of PACK
    uint q1 = min(q0 + pc.chunk_len / PACK, pc.e_hi / PACK);
    uint base = s * pc.stat_stride - pc.flat_base;

    float K = RMS ? 0.0 : STATS[s].x;
    if (LOOPED) {
        vec3 t = vec3(0.0);
        uint qe = pc.e_hi / PACK, step = pc.chunk_len / PACK;
        for (uint c0 = q0; c0 < qe; c0 += step) {
            uint c1 = min(c0 + step, qe);
            float cn = float((c1 - c0) * PACK);
            float cmean = owner_sum_a(load(base, K, c0, c1, lanes, lane)) / cn;
            float cm2 = RMS ? 0.0 : owner_sum_b(deviations(cmean, c0, c1, lanes, lane));
            // Every invocation has read this chunk's sums before the next chunk's sums overwrite them.
            if (!SUBGROUP_STATS) barrier();
            t = chan_merge(t, vec3(cn, cmean, cm2), RMS);
        }
        vec4 st = vec4(0.0);
        for (uint c0 = q0; c0 < qe; c0 += step) {
            uint c1 = min(c0 + step, qe);
            load(base, K, c0, c1, lanes, lane);
            st = finish(s, base, K, t.y, t.z, t.x, c0, c1, lanes, lane);
        }
        if (lane == 0u) STATS[s] = st;
        return;
    }
    float n = float((q1 - q0) * PACK);
    float mean = owner_sum_a(load(base, K, q0, q1, lanes, lane)) / n;  // RMS: mean square
    float m2 = RMS ? 0.0 : owner_sum_b(deviations(mean, q0, q1, lanes, lane));

    if (FUSED) {
        vec4 st = finish(s, base, K, mean, m2, n, q0, q1, lanes, lane);
        if (lane == 0u) STATS[s] = st;
    } else if (lane == 0u) {
        PARTIALS[s * pc.chunks_total + pc.chunk_base + chunk] = vec4(n, mean, m2, 0.0);
    }
}
