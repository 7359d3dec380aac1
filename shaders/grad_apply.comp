#version 450
// Element-wise ∂L/∂x with finished statistics and the statistics pass's means (GRAD[s]):
//   dx = rstd·(g − mean(g) − x̂·mean(g·x̂)), g = dy·γ;  RMS: no mean(g) term;
//   EVAL (BatchNorm with running statistics, constants): dx = rstd·g.
// Workgroup w handles chunk (w % chunks) of statistic (w / chunks), as norm_apply.comp.
// ROWS (layer/rms, one γ per element): workgroup w handles chunk (w % chunks) of the
// gstat_seg_mul statistics of block w / chunks and also writes, per element e of its chunk,
// Σdy and Σdy·x̂ over them as PARTIALS[e·blocks + block] (blocks = gstat_p_div), which
// grad_merge.comp adds up to ∂L/∂β, ∂L/∂γ: no second pass over x and dy.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 4;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool EVAL = false;
layout(constant_id = 4) const bool VEC4 = false;  // packs of 4 elements, 16-byte loads and stores
layout(constant_id = 5) const bool ROWS = false;
#include "norm_common.glsl"
#include "grad_common.glsl"

const uint PACK = VEC4 ? 4u : 1u;
vec4 pa[VPT], pb[VPT];

// ∂L/∂x of statistic s over elements [e0, e1); the ROWS accumulators gain its dy and dy·x̂.
void statistic(uint s, uint e0, uint e1) {
    uint base = s * pc.stat_stride - pc.flat_base;
    uint pbase = param_base(s);
    vec4 st = STATS[s];
    vec2 m = EVAL ? vec2(0.0) : GRAD[s].xy;  // mean g, mean g·x̂
    float mg = RMS ? 0.0 : m.x;
    for (uint j = 0u; j < VPT; ++j) {
        uint e = e0 + PACK * (j * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
        if (e >= e1) continue;
        uint i = element_offset(base, e);
        vec4 dy = VEC4 ? DY4[i >> 2] : vec4(DY[i], 0.0, 0.0, 0.0);
        vec4 x = VEC4 ? X4[i >> 2] : vec4(X[i], 0.0, 0.0, 0.0);
        vec4 g = dy * (VEC4 ? grad_gamma4(pbase, e) : vec4(grad_gamma(pbase, e)));
        vec4 xh = RMS ? x * st.w : ((x - st.x) - st.y) * st.w;
        vec4 dx = st.w * (g - mg - xh * m.y);
        if (VEC4) Y4[i >> 2] = dx;
        else Y[i] = dx.x;
        if (ROWS) {
            pa[j] += dy;
            pb[j] += dy * xh;
        }
    }
}

void main() {
    uint wg = linear_workgroup();
    uint per = ROWS ? pc.gstat_seg_mul : 1u;
    uint blocks = (pc.slab_stats + per - 1u) / per;
    if (wg >= blocks * pc.chunks) return;
    uint blk = wg / pc.chunks;
    uint e0 = pc.e_lo + (wg - blk * pc.chunks) * pc.chunk_len;
    uint e1 = min(e0 + pc.chunk_len, pc.e_hi);
    uint s0 = blk * per, s1 = min(s0 + per, pc.slab_stats);
    for (uint j = 0u; j < VPT; ++j) {
        pa[j] = vec4(0.0);
        pb[j] = vec4(0.0);
    }
    for (uint s = s0; s < s1; ++s) statistic(pc.stat_lo + s, e0, e1);
    if (!ROWS) return;
    for (uint j = 0u; j < VPT; ++j) {
        uint e = e0 + PACK * (j * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
        if (e >= e1) continue;
        for (uint k = 0u; k < PACK; ++k)
            PARTIALS[(e + k) * pc.gstat_p_div + blk] = vec4(pa[j][k], pb[j][k], float(s1 - s0), 0.0);
    }
}
