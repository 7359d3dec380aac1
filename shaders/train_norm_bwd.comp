#version 450
// Training: a norm's input gradient over one set per workgroup, from the forward's xhat and rstd:
// g = dY·γ[c]; dX = rstd·(g − mean(g) − xhat·mean(g·xhat)) (rms, flag 1: without the − mean(g)).
// Flag 16 (small sets): one invocation per set, no shared memory, 64 sets per workgroup.
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
layout(std430, binding = 4) writeonly buffer DZb { float DZ[]; };  // dX
#include "train_norm_set_bwd.glsl"
shared float s_a[64];
shared float s_b[64];
void main() {
    bool serial = (pc.flags & 16u) != 0u;
    uint s = serial ? gl_GlobalInvocationID.x : gl_WorkGroupID.x;
    uint t = serial ? 0u : gl_LocalInvocationID.x, stride = serial ? 1u : 64u;
    if (serial && s >= pc.sets) return;
    vec2 p = norm_bwd_parts(s, t, stride);
    float sg = p.x, sgx = p.y;
    if (!serial) {
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
        sg = s_a[0];
        sgx = s_b[0];
    }
    norm_bwd_write(s, t, stride, sg, sgx);
}
