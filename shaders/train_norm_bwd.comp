#version 450
// Training: a norm's input gradient over one set per workgroup, from the forward's xhat and rstd:
// g = dY·γ[c]; dX = rstd·(g − mean(g) − xhat·mean(g·xhat)) (rms, flag 1: without the − mean(g)).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint sets; uint members; uint set_inner; uint set_outer_stride; uint set_inner_stride;
    uint member_inner; uint member_outer_stride; uint member_inner_stride; uint channels; uint channel_stride;
    uint flags;
} pc;
#include "train_norm_common.glsl"
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer XHb { float XHAT[]; };
layout(std430, binding = 2) readonly buffer Sb { float STATS[]; };
layout(std430, binding = 3) readonly buffer Gb { float GAMMA[]; };
layout(std430, binding = 4) writeonly buffer DXb { float DX[]; };
shared float s_a[64];
shared float s_b[64];
void main() {
    uint s = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    float sg = 0.0, sgx = 0.0;
    for (uint m = t; m < pc.members; m += 64u) {
        uint a = norm_address(s, m);
        float g = DY[a] * GAMMA[norm_channel(a)];
        sg += g;
        sgx += g * XHAT[a];
    }
    s_a[t] = sg;
    s_b[t] = sgx;
    barrier();
    for (uint k = 32u; k > 0u; k >>= 1u) {
        if (t < k) {
            s_a[t] += s_a[t + k];
            s_b[t] += s_b[t + k];
        }
        barrier();
    }
    float M = float(pc.members);
    float mg = (pc.flags & 1u) != 0u ? 0.0 : s_a[0] / M;
    float mgx = s_b[0] / M;
    float rstd = STATS[2u * s + 1u];
    for (uint m = t; m < pc.members; m += 64u) {
        uint a = norm_address(s, m);
        float g = DY[a] * GAMMA[norm_channel(a)];
        DX[a] = rstd * (g - mg - XHAT[a] * mgx);
    }
}
