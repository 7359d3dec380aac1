#version 450
// Training: a norm's parameter gradients, one invocation per channel c: dγ[c] = Σ dY·xhat and
// dβ[c] = Σ dY over the channel's rows × inner elements (r·row_stride + c·channel_stride + i). sgd ≠ 0:
// the same invocation then takes train_sgd.comp's step on γ[c] (and β[c]) with their momentum buffers.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint channels; uint rows; uint row_stride; uint channel_stride; uint inner;
                                     uint has_bias; uint sgd; float lr; float momentum; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer XHb { float XHAT[]; };
layout(std430, binding = 2) writeonly buffer DGb { float DGAMMA[]; };
layout(std430, binding = 3) writeonly buffer DBb { float DBETA[]; };
layout(std430, binding = 4) buffer Gb { float GAMMA[]; };
layout(std430, binding = 5) buffer Bb { float BETA[]; };
layout(std430, binding = 6) buffer MGb { float MGAMMA[]; };
layout(std430, binding = 7) buffer MBb { float MBETA[]; };
#include "train_norm_param_step.glsl"
#include "train_norm_pgrad_rows.glsl"
void main() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= pc.channels) return;
    norm_pgrad_channel(c);
}
