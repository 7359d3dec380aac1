#version 450
// Looped backward for statistics too long for grad_fused.comp's registers: an owner (a subgroup
// with SUBGROUP_OWNERS, else the workgroup) owns whole statistics and walks each twice. The
// first loop reads x and dy and reduces Σg and Σg·x̂ (g = dy·γ); the second walks the same
// elements again, in tiles of VPT packs per lane, and writes ∂L/∂x = rstd·(g − mean(g) −
// x̂·mean(g·x̂)) (RMS: no mean(g) term). The second read follows the first within one owner, so
// it is served from the cache the first one filled (a statistic, or a block of ROWS_PER of them,
// per owner): no partials, no merge, no second dispatch.
// An owner handles ROWS_PER consecutive statistics (push gstat_seg_mul; 1 unless ROWS): the first
// loop runs statistic by statistic, the second tile by tile over all of them; where a statistic
// fits one tile (VPT packs per lane), each statistic's two loops run back to back.
// ∂L/∂γ, ∂L/∂β as grad_fused.comp: ONE_GAMMA: PARTIALS[s] = (Σdy, Σdy·x̂, n); ROWS: per element e,
// Σdy and Σdy·x̂ over the owner's statistics as PARTIALS[e·blocks + owner] (blocks = gstat_p_div);
// RUN_GAMMA (GroupNorm, 1 < C/G: a γ per channel, a run of pelem_div elements of the statistic):
// the first loop walks the statistic run by run and writes each run's sums, PARTIALS[s·chunks_total
// + r] = (Σdy, Σdy·x̂, n) of run r (chunks_total = runs per statistic), which the γ/β merge adds up over n.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 8;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool SUBGROUP_OWNERS = false;
layout(constant_id = 4) const bool VEC4 = false;
layout(constant_id = 5) const bool ROWS = false;
layout(constant_id = 6) const bool ONE_GAMMA = false;
layout(constant_id = 7) const uint ROWS_PER = 1;  // the most statistics of one owner
layout(constant_id = 8) const bool RUN_GAMMA = false;
#include "workgroup_sum.glsl"
#include "norm_common.glsl"
#include "grad_common.glsl"

const uint PACK = VEC4 ? 4u : 1u;
const bool SUM_GAMMA = ONE_GAMMA || RUN_GAMMA;  // the first loop reads no γ: each run's sums get it
const vec4 ONES = vec4(1.0);

float mean_g[ROWS_PER], mean_gx[ROWS_PER];  // per statistic of the owner, every lane the same
vec4 pa[VPT], pb[VPT];

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

vec4 gamma4(uint pbase, uint e) {
    return VEC4 ? grad_gamma4(pbase, e) : vec4(grad_gamma(pbase, e), 0.0, 0.0, 0.0);
}
vec4 load_x(uint o) { return VEC4 ? X4[o >> 2] : vec4(X[o], 0.0, 0.0, 0.0); }
vec4 load_dy(uint o) { return VEC4 ? DY4[o >> 2] : vec4(DY[o], 0.0, 0.0, 0.0); }
vec4 xhat(vec4 x, vec4 st) { return RMS ? x * st.w : ((x - st.x) - st.y) * st.w; }

// The first loop over statistic s (the owner's i-th): its sums, means and ONE_GAMMA / RUN_GAMMA
// partials. A run has one γ (RUN_GAMMA: a channel; otherwise the whole statistic is one run).
void reduce_statistic(uint s, uint i, uint lane, uint lanes) {
    uint base = s * pc.stat_stride - pc.flat_base, pbase = param_base(s);
    vec4 st = STATS[s];
    uint q0 = pc.e_lo / PACK, q1 = pc.e_hi / PACK, run = RUN_GAMMA ? pc.pelem_div / PACK : q1 - q0;
    float ta = 0.0, tb = 0.0;
    uint r = 0u;
    for (uint r0 = q0; r0 < q1; r0 += run, ++r) {
        float a = 0.0, b = 0.0;
        for (uint q = r0 + lane; q < r0 + run; q += lanes) {
            uint o = element_offset(base, q * PACK);
            vec4 g = SUM_GAMMA ? load_dy(o) : load_dy(o) * gamma4(pbase, q * PACK);
            a += dot(g, ONES);
            b += dot(g, xhat(load_x(o), st));
        }
        a = owner_sum_a(a);
        b = owner_sum_b(b);
        // Every invocation has read this run's sums before the next run's sums overwrite them.
        if (RUN_GAMMA && !SUBGROUP_OWNERS) barrier();
        float gs = SUM_GAMMA && HAS_W ? W[param_index(pbase, r0 * PACK)] : 1.0;
        ta += gs * a;
        tb += gs * b;
        if (SUM_GAMMA && lane == 0u) PARTIALS[s * pc.chunks_total + r] = vec4(a, b, float(run * PACK), 0.0);
    }
    float n = float(pc.e_hi - pc.e_lo);
    mean_g[i] = ta / n;
    mean_gx[i] = tb / n;
    if (lane == 0u) GRAD[s] = vec4(mean_g[i], mean_gx[i], n, 0.0);
}

// The second loop's tile starting at pack t0 of statistic s (the owner's i-th): ∂L/∂x; the ROWS
// accumulators gain its dy and dy·x̂.
void apply_tile(uint s, uint i, uint t0, uint lane, uint lanes) {
    uint base = s * pc.stat_stride - pc.flat_base, pbase = param_base(s);
    vec4 st = STATS[s];
    float gs = ONE_GAMMA && HAS_W ? W[pbase] : 1.0;
    float mg = RMS ? 0.0 : mean_g[i], mgx = mean_gx[i];
    for (uint j = 0u; j < VPT; ++j) {
        uint q = t0 + j * lanes + lane;
        if (q >= pc.e_hi / PACK) break;
        uint o = element_offset(base, q * PACK);
        vec4 dy = load_dy(o), xh = xhat(load_x(o), st);
        vec4 dx = st.w * (dy * (ONE_GAMMA ? vec4(gs) : gamma4(pbase, q * PACK)) - mg - xh * mgx);
        if (VEC4) Y4[o >> 2] = dx;
        else Y[o] = dx.x;
        if (ROWS) {
            pa[j] += dy;
            pb[j] += dy * xh;
        }
    }
}

void main() {
    uint owner = linear_workgroup(), lane = gl_LocalInvocationID.x, lanes = gl_WorkGroupSize.x;
#ifdef NL_SUBGROUP_ARITH
    if (SUBGROUP_OWNERS) {
        owner = owner * gl_NumSubgroups + gl_SubgroupID;
        lane = gl_SubgroupInvocationID;
        lanes = gl_SubgroupSize;
    }
#endif
    uint per = ROWS ? pc.gstat_seg_mul : 1u;
    uint s0 = owner * per;
    if (s0 >= pc.slab_stats) return;  // uniform for the owner
    uint s1 = min(s0 + per, pc.slab_stats);
    uint q0 = pc.e_lo / PACK, q1 = pc.e_hi / PACK;
    // A statistic within one tile: its two loops back to back (the second read from the nearest
    // cache, and no walk across the block's statistics, whose equal offsets share cache sets).
    bool one_tile = q1 - q0 <= VPT * lanes;
    for (uint s = s0; s < s1 && !one_tile; ++s) {
        reduce_statistic(pc.stat_lo + s, s - s0, lane, lanes);
        if (!SUBGROUP_OWNERS) barrier();  // every invocation has read this statistic's sums before the next writes
    }
    for (uint t0 = q0; t0 < q1; t0 += VPT * lanes) {
        for (uint j = 0u; j < VPT; ++j) {
            pa[j] = vec4(0.0);
            pb[j] = vec4(0.0);
        }
        for (uint s = s0; s < s1; ++s) {
            if (one_tile) {
                reduce_statistic(pc.stat_lo + s, s - s0, lane, lanes);
                if (!SUBGROUP_OWNERS) barrier();  // as above
            }
            apply_tile(pc.stat_lo + s, s - s0, t0, lane, lanes);
        }
        if (!ROWS) continue;
        for (uint j = 0u; j < VPT; ++j) {
            uint q = t0 + j * lanes + lane;
            if (q >= q1) break;
            for (uint k = 0u; k < PACK; ++k)
                PARTIALS[(q * PACK + k) * pc.gstat_p_div + owner] = vec4(pa[j][k], pb[j][k], float(s1 - s0), 0.0);
        }
    }
}
