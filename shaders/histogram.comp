#version 450
// Histogram of one set of elements of a tensor (the whole tensor, or the elements of one
// StatLayout statistic: `segments` runs of `segment_len` values, `segment_stride` apart,
// starting at `base`). Three passes in one shader, chosen by the PASS macro:
//   PASS 0: workgroup w reduces elements [w·chunk_len, (w+1)·chunk_len): count, mean of x−K,
//           M2 = Σ(x−K−mean)² (two passes over the chunk, K = the set's first value), min, max;
//   PASS 1: one invocation merges the partials with Chan's formula into RES;
//   PASS 2: counts every value into `bins` equal bins over [min, max] of RES.
// Non-finite values (NaN, ±Inf) are skipped by all three passes.
// DIFF: the values are X − Xb (e.g. y − x) instead of X.
layout(local_size_x_id = 0) in;
#include "workgroup_sum.glsl"

// The first 36 bytes of normlab/core/histogram_set.hpp's HistogramParams (plan_histogram).
layout(push_constant) uniform Push {
    uint base;
    uint segments;
    uint segment_len;
    uint segment_stride;
    uint count;      // elements in the set
    uint chunk_len;  // elements per workgroup (PASS 0 and 2)
    uint chunks;     // workgroups (PASS 0 and 2)
    uint bins;       // 1..MAX_BINS
    uint groups_x;   // dispatch width, to linearize 2-D workgroup ids
} pc;

const uint MAX_BINS = 256u;

layout(std430, binding = 0) readonly buffer Values { float X[]; };
// Per chunk: (count, mean of x−K, M2, unused), (min, max, unused, unused).
layout(std430, binding = 1) buffer Partials { vec4 PART[]; };
// RES[0] = (count, mean, biased variance, K); RES[1] = (min, max, 0, 0).
layout(std430, binding = 2) buffer Result { vec4 RES[]; };
layout(std430, binding = 3) buffer Bins { uint BINS[]; };
layout(std430, binding = 4) readonly buffer Subtract { float XB[]; };

uint element_offset(uint e) {
    if (pc.segments == 1u) return pc.base + e;
    uint j = e / pc.segment_len;
    return pc.base + j * pc.segment_stride + (e - j * pc.segment_len);
}

float value(uint e) {
    uint i = element_offset(e);
#ifdef DIFF
    return X[i] - XB[i];
#else
    return X[i];
#endif
}

bool finite(float v) { return !isnan(v) && !isinf(v); }

// Order-preserving float <-> uint, so that atomicMin/atomicMax on uints order floats.
uint ordered(float f) {
    uint u = floatBitsToUint(f);
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}
float unordered(uint u) {
    return uintBitsToFloat((u & 0x80000000u) != 0u ? (u & 0x7fffffffu) : ~u);
}

shared uint s_min;
shared uint s_max;
shared uint s_bins[MAX_BINS];

float shift_value() {
    float k = pc.count > 0u ? value(0u) : 0.0;
    return finite(k) ? k : 0.0;
}

void main() {
    uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * pc.groups_x;
    uint tid = gl_LocalInvocationID.x;
    uint wgsize = gl_WorkGroupSize.x;
#if PASS == 0
    if (wg >= pc.chunks) return;  // uniform for the whole workgroup
    uint e0 = wg * pc.chunk_len;
    uint e1 = min(e0 + pc.chunk_len, pc.count);
    float K = shift_value();
    if (tid == 0u) {
        s_min = 0xffffffffu;
        s_max = 0u;
    }
    float n = 0.0, s = 0.0;
    // ±Inf, not ±3.4e38: finite values up to ±FLT_MAX (3.4028235e38) must replace them.
    float lo = uintBitsToFloat(0x7f800000u), hi = -uintBitsToFloat(0x7f800000u);
    for (uint e = e0 + tid; e < e1; e += wgsize) {
        float v = value(e);
        if (!finite(v)) continue;
        n += 1.0;
        s += v - K;
        lo = min(lo, v);
        hi = max(hi, v);
    }
    float total_n = wg_sum_a(n);
    float total_s = wg_sum_b(s);
    float mean = total_n > 0.0 ? total_s / total_n : 0.0;
    float m2 = 0.0;
    for (uint e = e0 + tid; e < e1; e += wgsize) {
        float v = value(e);
        if (!finite(v)) continue;
        float d = v - K - mean;
        m2 += d * d;
    }
    barrier();  // every invocation has read red_a (the count) before wg_sum_a reuses it
    float total_m2 = wg_sum_a(m2);
    if (n > 0.0) {
        atomicMin(s_min, ordered(lo));
        atomicMax(s_max, ordered(hi));
    }
    barrier();  // orders the shared min/max atomics before invocation 0 reads them
    if (tid == 0u) {
        PART[2u * wg] = vec4(total_n, mean, total_m2, 0.0);
        PART[2u * wg + 1u] = total_n > 0.0 ? vec4(unordered(s_min), unordered(s_max), 0.0, 0.0) : vec4(0.0);
    }
#elif PASS == 1
    if (wg != 0u || tid != 0u) return;
    float n = 0.0, mean = 0.0, m2 = 0.0;
    float lo = 0.0, hi = 0.0;
    for (uint c = 0u; c < pc.chunks; ++c) {
        vec4 p = PART[2u * c];
        vec4 q = PART[2u * c + 1u];
        if (p.x <= 0.0) continue;
        if (n == 0.0) {
            lo = q.x;
            hi = q.y;
        } else {
            lo = min(lo, q.x);
            hi = max(hi, q.y);
        }
        // Chan et al.: combine (n, mean, M2) of two disjoint sets.
        float nn = n + p.x;
        float delta = p.y - mean;
        mean += delta * p.x / nn;
        m2 += p.z + delta * delta * n * p.x / nn;
        n = nn;
    }
    float K = shift_value();
    RES[0] = vec4(n, K + mean, n > 0.0 ? max(m2 / n, 0.0) : 0.0, K);
    RES[1] = vec4(lo, hi, 0.0, 0.0);
#else
    if (wg >= pc.chunks) return;  // uniform for the whole workgroup
    for (uint b = tid; b < pc.bins; b += wgsize) s_bins[b] = 0u;
    barrier();  // the shared bins are zeroed before any invocation counts into them
    float lo = RES[1].x, hi = RES[1].y;
    float scale = hi > lo ? float(pc.bins) / (hi - lo) : 0.0;
    uint e0 = wg * pc.chunk_len;
    uint e1 = min(e0 + pc.chunk_len, pc.count);
    for (uint e = e0 + tid; e < e1; e += wgsize) {
        float v = value(e);
        if (!finite(v)) continue;
        uint b = hi > lo ? uint(clamp(int((v - lo) * scale), 0, int(pc.bins) - 1)) : pc.bins / 2u;
        atomicAdd(s_bins[b], 1u);
    }
    barrier();  // every value is counted in shared memory before the bins are flushed
    for (uint b = tid; b < pc.bins; b += wgsize)
        if (s_bins[b] != 0u) atomicAdd(BINS[b], s_bins[b]);
#endif
}
