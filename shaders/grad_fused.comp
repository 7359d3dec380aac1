#version 450
// Fused backward where the forward's plan fuses (a statistic fits one owner's registers): the
// owner (a subgroup with SUBGROUP_OWNERS, else the workgroup) reads each statistic's x and dy
// once into registers, reduces Σg and Σg·x̂ (g = dy·γ), writes the statistic's means to GRAD
// and ∂L/∂x = rstd·(g − mean(g) − x̂·mean(g·x̂)) (RMS: no mean(g) term) in the same kernel.
// An owner handles ROWS_PER consecutive statistics (push gstat_seg_mul; 1 unless ROWS).
// ∂L/∂γ, ∂L/∂β without a second pass over x and dy:
//   ONE_GAMMA (one γ per statistic): PARTIALS[s] = (Σdy, Σdy·x̂, n), added up per γ/β index by
//   grad_merge.comp FROM_STATS, as the split path's statistics partials;
//   ROWS (layer/rms, one γ per element): per element e, Σdy and Σdy·x̂ over the owner's
//   statistics, written as PARTIALS[e·blocks + owner] (blocks = push gstat_p_div), added up
//   by grad_merge.comp (γ/β pass).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 8;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool SUBGROUP_OWNERS = false;
layout(constant_id = 4) const bool VEC4 = false;
layout(constant_id = 5) const bool ROWS = false;
layout(constant_id = 6) const bool ONE_GAMMA = false;
#include "workgroup_sum.glsl"
#include "norm_common.glsl"
#include "grad_common.glsl"

const uint PACK = VEC4 ? 4u : 1u;
const vec4 ONES = vec4(1.0);

vec4 xv[VPT], dyv[VPT], pa[VPT], pb[VPT];

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
    if (ONE_GAMMA) return vec4(1.0);  // γ applied to the sums instead
    return VEC4 ? grad_gamma4(pbase, e) : vec4(grad_gamma(pbase, e), 0.0, 0.0, 0.0);
}

// One statistic: loads, sums, means, ∂L/∂x; the ROWS accumulators gain its dy and dy·x̂.
void statistic(uint s, uint lane, uint lanes) {
    uint base = s * pc.stat_stride - pc.flat_base;
    uint q0 = pc.e_lo / PACK, q1 = pc.e_hi / PACK;
    uint pbase = param_base(s);
    vec4 st = STATS[s];
    float a = 0.0, b = 0.0;
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * lanes + lane;
        xv[j] = vec4(0.0);
        dyv[j] = vec4(0.0);
        if (q < q1) {
            uint o = element_offset(base, q * PACK);
            xv[j] = VEC4 ? X4[o >> 2] : vec4(X[o], 0.0, 0.0, 0.0);
            dyv[j] = VEC4 ? DY4[o >> 2] : vec4(DY[o], 0.0, 0.0, 0.0);
            xv[j] = RMS ? xv[j] * st.w : ((xv[j] - st.x) - st.y) * st.w;  // x̂ from here on
            vec4 g = dyv[j] * gamma4(pbase, q * PACK);
            a += dot(g, ONES);
            b += dot(g, xv[j]);
        }
    }
    a = owner_sum_a(a);
    b = owner_sum_b(b);
    float n = float(pc.e_hi - pc.e_lo);
    float gs = ONE_GAMMA && HAS_W ? W[pbase] : 1.0;
    float mg = RMS ? 0.0 : gs * a / n, mgx = gs * b / n;
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * lanes + lane;
        if (q < q1) {
            uint o = element_offset(base, q * PACK);
            vec4 g = dyv[j] * (ONE_GAMMA ? vec4(gs) : gamma4(pbase, q * PACK));
            vec4 dx = st.w * (g - mg - xv[j] * mgx);
            if (VEC4) Y4[o >> 2] = dx;
            else Y[o] = dx.x;
            if (ROWS) {
                pa[j] += dyv[j];
                pb[j] += dyv[j] * xv[j];
            }
        }
    }
    if (lane == 0u) {
        GRAD[s] = vec4(gs * a / n, mgx, n, 0.0);
        if (ONE_GAMMA) PARTIALS[s] = vec4(a, b, n, 0.0);
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
    for (uint j = 0u; j < VPT; ++j) {
        pa[j] = vec4(0.0);
        pb[j] = vec4(0.0);
    }
    for (uint s = s0; s < s1; ++s) {
        statistic(pc.stat_lo + s, lane, lanes);
        if (!SUBGROUP_OWNERS) barrier();  // every invocation has read this statistic's sums before the next writes
    }
    if (!ROWS) return;
    uint q0 = pc.e_lo / PACK, q1 = pc.e_hi / PACK;
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * lanes + lane;
        if (q < q1) {
            for (uint k = 0u; k < PACK; ++k) {
                uint e = q * PACK + k;
                PARTIALS[e * pc.gstat_p_div + owner] = vec4(pa[j][k], pb[j][k], float(s1 - s0), 0.0);
            }
        }
    }
}
