#version 450
// Backward reductions. Owner o reduces chunk (o % chunks) of group (o / chunks) of the bound
// layout and writes the partial (Σa, Σb, count, 0), which grad_merge.comp adds up:
//   statistics pass (PARAM_PASS false, the forward's StatLayout): a = g = dy·γ, b = g·x̂; where
//   every chunk has one γ (CHUNK_GAMMA: one γ per statistic, or GroupNorm's chunks inside one
//   channel) a = dy, b = dy·x̂ instead, grad_merge.comp multiplies by each chunk's γ and also
//   adds these partials up per γ/β index (no γ/β pass);
//   γ/β pass (PARAM_PASS true, a layout whose groups are the γ/β indices p): a = dy, b = dy·x̂,
//   with x̂ from each element's own statistic (j·gstat_seg_mul + p / gstat_p_div, j = e / segment_len).
// An owner is a subgroup (SUBGROUP_OWNERS: subgroupAdd, no barrier) or a workgroup, as in
// norm_stats.comp; COLUMNS (γ/β of layer/rms, one element per row): an owner is one invocation
// that walks its chunk of rows alone, consecutive invocations taking consecutive p.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 16;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool PARAM_PASS = false;
layout(constant_id = 4) const bool SUBGROUP_OWNERS = false;
layout(constant_id = 5) const bool COLUMNS = false;
// Packs of 4 elements (16-byte loads) where every run of the bound layout holds whole vec4s.
layout(constant_id = 6) const bool VEC4 = false;
layout(constant_id = 7) const bool CHUNK_GAMMA = false;
#include "workgroup_sum.glsl"
#include "norm_common.glsl"
#include "grad_common.glsl"

// a and b of element e of group s (window offset i).
vec2 terms(uint s, uint e, uint i, uint pbase, uint pterm, vec4 st) {
    float dy = DY[i];
    if (PARAM_PASS) {
        uint seg = SEGMENTED ? udiv(e, pc.seg_magic, pc.seg_s1, pc.seg_s2) : 0u;
        return vec2(dy, dy * grad_xhat(X[i], STATS[seg * pc.gstat_seg_mul + pterm], RMS));
    }
    float g = CHUNK_GAMMA ? dy : dy * grad_gamma(pbase, e);
    return vec2(g, g * grad_xhat(X[i], st, RMS));
}

// a and b summed over the pack of 4 elements starting at element e (window offset i, i % 4 = 0).
vec2 terms4(uint e, uint i, uint pbase, uint pterm, vec4 st) {
    vec4 dy = DY4[i >> 2], x = X4[i >> 2];
    if (PARAM_PASS) {
        uint seg = SEGMENTED ? udiv(e, pc.seg_magic, pc.seg_s1, pc.seg_s2) : 0u;
        vec4 t = STATS[seg * pc.gstat_seg_mul + pterm];
        vec4 xh = RMS ? x * t.w : ((x - t.x) - t.y) * t.w;
        return vec2(dot(dy, vec4(1.0)), dot(dy, xh));
    }
    vec4 g = CHUNK_GAMMA ? dy : dy * grad_gamma4(pbase, e);
    vec4 xh = RMS ? x * st.w : ((x - st.x) - st.y) * st.w;
    return vec2(dot(g, vec4(1.0)), dot(g, xh));
}

float owner_sum_a(float x) {
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_OWNERS) return subgroupAdd(x);
#endif
    return wg_sum_a(x);
}
float owner_sum_b(float x) {
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_OWNERS) return subgroupAdd(x);
#endif
    return wg_sum_b(x);
}

void main() {
    uint owner = linear_workgroup(), lane = gl_LocalInvocationID.x, lanes = gl_WorkGroupSize.x;
    if (COLUMNS) {
        owner = owner * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
        lane = 0u;
        lanes = 1u;
    }
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_OWNERS) {
        owner = owner * gl_NumSubgroups + gl_SubgroupID;
        lane = gl_SubgroupInvocationID;
        lanes = gl_SubgroupSize;
    }
#endif
    if (owner >= pc.slab_stats * pc.chunks) return;  // uniform for the owner
    uint sl, chunk;
    if (COLUMNS) {  // consecutive invocations: consecutive groups, the same chunk
        chunk = owner / pc.slab_stats;
        sl = owner - chunk * pc.slab_stats;
    } else {
        sl = owner / pc.chunks;
        chunk = owner - sl * pc.chunks;
    }
    uint s = pc.stat_lo + sl;
    uint e0 = pc.e_lo + chunk * pc.chunk_len;
    uint e1 = min(e0 + pc.chunk_len, pc.e_hi);
    uint base = s * pc.stat_stride - pc.flat_base;
    uint pterm = PARAM_PASS && pc.gstat_p_div != 0u ? s / pc.gstat_p_div : 0u;
    uint pbase = PARAM_PASS ? 0u : param_base(s);
    vec4 st = PARAM_PASS ? vec4(0.0) : STATS[s];

    vec2 acc = vec2(0.0);
    if (COLUMNS) {
        for (uint e = e0; e < e1; ++e) acc += terms(s, e, element_offset(base, e), pbase, pterm, st);
    } else if (VEC4) {
        for (uint j = 0u; j < VPT; ++j) {
            uint e = e0 + 4u * (j * lanes + lane);
            if (e < e1) acc += terms4(e, element_offset(base, e), pbase, pterm, st);
        }
        acc = vec2(owner_sum_a(acc.x), owner_sum_b(acc.y));
    } else {
        for (uint j = 0u; j < VPT; ++j) {
            uint e = e0 + j * lanes + lane;
            if (e < e1) acc += terms(s, e, element_offset(base, e), pbase, pterm, st);
        }
        acc = vec2(owner_sum_a(acc.x), owner_sum_b(acc.y));
    }
    if (lane == 0u) PARTIALS[s * pc.chunks_total + pc.chunk_base + chunk] = vec4(acc, float(e1 - e0), 0.0);
}
