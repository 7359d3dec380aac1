#version 450
// Training: BatchNorm's backward in one pass where each set is one channel (set s = channel s) and one
// invocation owns it (train_norm_bwd.comp's flag 16; 64 channels per workgroup): dX as train_norm_bwd.comp,
// and in the same loop over the members (in train_norm_pgrad.comp's order: rows, then inner) dγ[s] = Σ dY·xhat
// and dβ[s] = Σ dY. sgd ≠ 0: after dX has read γ[s], train_sgd.comp's step on γ[s] (and β[s]) with their
// momentum buffers, as train_norm_pgrad.comp takes it. Ten storage buffers.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint sets; uint members; uint set_inner; uint set_outer_stride; uint set_inner_stride;
    uint member_inner; uint member_outer_stride; uint member_inner_stride; uint channels; uint channel_stride;
    uint flags; uint sgd; float lr; float momentum;
} pc;
#include "train_norm_common.glsl"
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer XHb { float XHAT[]; };
layout(std430, binding = 2) readonly buffer Sb { float STATS[]; };
layout(std430, binding = 3) buffer Gb { float GAMMA[]; };
layout(std430, binding = 4) writeonly buffer DZb { float DZ[]; };  // dX
layout(std430, binding = 5) writeonly buffer DGb { float DGAMMA[]; };
layout(std430, binding = 6) writeonly buffer DBb { float DBETA[]; };
layout(std430, binding = 7) buffer Bb { float BETA[]; };
layout(std430, binding = 8) buffer MGb { float MGAMMA[]; };
layout(std430, binding = 9) buffer MBb { float MBETA[]; };
#include "train_norm_set_bwd.glsl"
#include "train_norm_param_step.glsl"
void main() {
    uint s = gl_GlobalInvocationID.x;
    if (s >= pc.sets) return;
    float sg = 0.0, sgx = 0.0, dg = 0.0, db = 0.0;
    for (uint m = 0u; m < pc.members; ++m) {
        uint a = norm_address(s, m);
        float g = DY[a] * GAMMA[s];
        sg += g;
        sgx += g * XHAT[a];
        dg += DY[a] * XHAT[a];
        db += DY[a];
    }
    norm_bwd_write(s, 0u, 1u, sg, sgx);
    norm_param_step(s, dg, db, (pc.flags & 8u) != 0u, pc.sgd != 0u, pc.lr, pc.momentum);
}
