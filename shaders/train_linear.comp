#version 450
// Training: Linear's forward Y[n, o] = f(b[o] + Σᵢ X[n, i]·W[o, i]) (W is Out × In, as PyTorch's), with
// the activation f that follows it fused (act: train_act_common.glsl's, 0 none); with one, Z keeps the
// value before it (the layer's pre-activation, which the Train view's strips read). One invocation per
// output element.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint act; } pc;
layout(std430, binding = 0) readonly buffer Xb { float X[]; };
layout(std430, binding = 1) readonly buffer Wb { float W[]; };
layout(std430, binding = 2) readonly buffer Bb { float B[]; };
layout(std430, binding = 3) writeonly buffer Yb { float Y[]; };
layout(std430, binding = 4) writeonly buffer Zb { float Z[]; };
#include "train_act_common.glsl"
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.N * pc.Out) return;
    uint n = e / pc.Out, o = e % pc.Out;
    float acc = 0.0;
    for (uint i = 0u; i < pc.In; ++i) acc += X[n * pc.In + i] * W[o * pc.In + i];
    float z = acc + B[o];
    if (pc.act != 0u) Z[e] = z;
    Y[e] = act_apply(pc.act, z);
}
