#version 450
// Elementwise normalization with finished statistics: y = γ·((x − K) − mean)·rstd + β
// (RMS: y = γ·x·rstd). Used after norm_merge.comp and for BatchNorm in eval mode, where
// the statistics are the running ones. Workgroup w handles chunk (w % chunks) of statistic
// (w / chunks), so the statistic is loaded once per workgroup; VPT packs per invocation
// (vec4s when VEC4).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 4;
layout(constant_id = 2) const bool RMS = false;
layout(constant_id = 3) const bool VEC4 = false;
#include "norm_common.glsl"

const uint PACK = VEC4 ? 4u : 1u;

void main() {
    uint wg = linear_workgroup();
    if (wg >= pc.slab_stats * pc.chunks) return;
    uint sl = wg / pc.chunks;
    uint s = pc.stat_lo + sl;
    uint q0 = (pc.e_lo + (wg - sl * pc.chunks) * pc.chunk_len) / PACK;
    uint q1 = min(q0 + pc.chunk_len / PACK, pc.e_hi / PACK);
    uint base = s * pc.stat_stride - pc.flat_base;
    uint pbase = param_base(s);
    vec4 st = STATS[s];
    vec2 gb = stat_affine(pbase);
    float scale = st.w * gb.x;
    float shift = st.x;
    for (uint j = 0u; j < VPT; ++j) {
        uint q = q0 + j * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
        if (q < q1) {
            uint i = element_offset(base, q * PACK);
            vec4 x = VEC4 ? X4[i >> 2] : vec4(X[i]);
            vec4 xhat = (RMS ? x : (x - shift) - st.y) * scale + gb.y;
            vec4 y = affine(xhat, pbase, q * PACK, VEC4);
            if (VEC4) Y4[i >> 2] = y;
            else Y[i] = y.x;
        }
    }
}
