#version 450
// Training: a norm's ∂γ, ∂β and the Linear before it's ∂W, ∂b in one pass, one workgroup of 64, each with SGD's
// step where sgd: invocation t takes the channels t, t + 64, … (train_norm_pgrad_rows.glsl), then the Linear's
// blocks t, t + 64, … (train_linear_dw_rows.glsl; no barrier: the two read and write nothing of each other's);
// train_norm_pgrad's and train_linear_dw's sums. Words: train_norm_pgrad's (9), then the Linear's N, In, Out;
// buffers: train_norm_pgrad's 8, then train_linear_dw's (its dY, here DZ: the norm's ∂x). The planner takes it
// where both fit a workgroup and the device binds its 16 storage buffers.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint channels; uint rows; uint row_stride; uint channel_stride; uint inner; uint has_bias; uint sgd; float lr;
    float momentum; uint N; uint In; uint Out;
} pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer XHb { float XHAT[]; };
layout(std430, binding = 2) writeonly buffer DGb { float DGAMMA[]; };
layout(std430, binding = 3) writeonly buffer DBEb { float DBETA[]; };
layout(std430, binding = 4) buffer Gb { float GAMMA[]; };
layout(std430, binding = 5) buffer BEb { float BETA[]; };
layout(std430, binding = 6) buffer MGb { float MGAMMA[]; };
layout(std430, binding = 7) buffer MBEb { float MBETA[]; };
layout(std430, binding = 8) readonly buffer DZb { float DZ[]; };
layout(std430, binding = 9) readonly buffer Xb { float X[]; };
layout(std430, binding = 10) writeonly buffer DWb { float DW[]; };
layout(std430, binding = 11) writeonly buffer DBb { float DB[]; };
layout(std430, binding = 12) buffer Wb { float W[]; };
layout(std430, binding = 13) buffer Bb { float B[]; };
layout(std430, binding = 14) buffer MWb { float MW[]; };
layout(std430, binding = 15) buffer MBb { float MB[]; };
#include "train_linear_block.glsl"
#include "train_norm_param_step.glsl"
#include "train_norm_pgrad_rows.glsl"
#define DY DZ
#include "train_linear_dw_rows.glsl"
void main() {
    uint t = gl_LocalInvocationID.x, cb = (pc.In + 4u) / 4u;
    for (uint c = t; c < pc.channels; c += 64u) norm_pgrad_channel(c);
    for (uint e = t; e < cb * ((pc.Out + 3u) / 4u); e += 64u) linear_dw_block(e / cb * 4u, e % cb * 4u);
}
