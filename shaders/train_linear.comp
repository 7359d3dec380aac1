#version 450
// Training: Linear's forward Y[n, o] = f(b[o] + Σᵢ X[n, i]·W[o, i]) (W is Out × In, as PyTorch's), with
// the activation f that follows it fused (act: train_act_common.glsl's, 0 none); with one, Z keeps the
// value before it (the layer's pre-activation, which the Train view's strips read). One invocation per
// block of 4 samples × 4 outputs (train_linear_blocks): each X and W value it loads serves 4 sums, which
// on a CPU device (lavapipe) cuts the loads that cost more than the multiply-adds. Each sum runs in order
// of i, then adds the bias, as with one invocation per element.
layout(local_size_x = 64) in;
#include "train_linear_block.glsl"
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint act; } pc;
layout(std430, binding = 0) readonly buffer Xb { float X[]; };
layout(std430, binding = 1) readonly buffer Wb { float W[]; };
layout(std430, binding = 2) readonly buffer Bb { float B[]; };
layout(std430, binding = 3) writeonly buffer Yb { float Y[]; };
layout(std430, binding = 4) writeonly buffer Zb { float Z[]; };
#include "train_act_common.glsl"
#include "train_linear_rows.glsl"
void main() {
    uint ob = (pc.Out + 3u) / 4u, e = gl_GlobalInvocationID.x;
    if (e >= ob * ((pc.N + 3u) / 4u)) return;
    uint n0 = e / ob * 4u, o0 = e % ob * 4u;
    float acc[4][4];
    linear_block_sums(n0, o0, acc);
    for (uint a = 0u; a < 4u; ++a)
        for (uint b = 0u; b < 4u; ++b) {
            uint n = n0 + a, o = o0 + b;
            if (n >= pc.N || o >= pc.Out) continue;
            float z = acc[a][b] + B[o];
            if (pc.act != 0u) Z[n * pc.Out + o] = z;
            Y[n * pc.Out + o] = act_apply(pc.act, z);
        }
}
