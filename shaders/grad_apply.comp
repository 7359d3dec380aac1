#version 450
// Element-wise ∂L/∂x with finished statistics and the statistics pass's means (GRAD[s]):
//   dx = rstd·(g − mean(g) − x̂·mean(g·x̂)), g = dy·γ;  RMS: no mean(g) term;
//   EVAL (BatchNorm with running statistics, constants): dx = rstd·g.
// Workgroup w handles chunk (w % chunks) of statistic (w / chunks), as norm_apply.comp.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 4;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool EVAL = false;
layout(constant_id = 4) const bool VEC4 = false;  // packs of 4 elements, 16-byte loads and stores
#include "norm_common.glsl"
#include "grad_common.glsl"

void main() {
    uint wg = linear_workgroup();
    if (wg >= pc.slab_stats * pc.chunks) return;
    uint sl = wg / pc.chunks;
    uint s = pc.stat_lo + sl;
    uint e0 = pc.e_lo + (wg - sl * pc.chunks) * pc.chunk_len;
    uint e1 = min(e0 + pc.chunk_len, pc.e_hi);
    uint base = s * pc.stat_stride - pc.flat_base;
    uint pbase = param_base(s);
    vec4 st = STATS[s];
    vec2 m = EVAL ? vec2(0.0) : GRAD[s].xy;  // mean g, mean g·x̂
    float mg = RMS ? 0.0 : m.x;
    if (VEC4) {
        for (uint j = 0u; j < VPT; ++j) {
            uint e = e0 + 4u * (j * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
            if (e < e1) {
                uint q = element_offset(base, e) >> 2;
                vec4 g = DY4[q] * grad_gamma4(pbase, e);
                vec4 xh = RMS ? X4[q] * st.w : ((X4[q] - st.x) - st.y) * st.w;
                Y4[q] = st.w * (g - mg - xh * m.y);
            }
        }
        return;
    }
    for (uint j = 0u; j < VPT; ++j) {
        uint e = e0 + j * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
        if (e < e1) {
            uint i = element_offset(base, e);
            float g = DY[i] * grad_gamma(pbase, e);
            float xh = grad_xhat(X[i], st, RMS);
            Y[i] = st.w * (g - mg - xh * m.y);
        }
    }
}
