#version 450
// Training: Linear's input gradient dX[n, i] = Σₒ dY[n, o]·W[o, i], times f'(·) of the activation that
// produced that input, from its output in A (act: train_act_common.glsl's; 0 none, A unused). One
// invocation per input element.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint act; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer Wb { float W[]; };
layout(std430, binding = 2) writeonly buffer DXb { float DX[]; };
layout(std430, binding = 3) readonly buffer Ab { float A[]; };
#include "train_act_common.glsl"
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.N * pc.In) return;
    uint n = e / pc.In, i = e % pc.In;
    float acc = 0.0;
    for (uint o = 0u; o < pc.Out; ++o) acc += DY[n * pc.Out + o] * W[o * pc.In + i];
    DX[e] = pc.act == 0u ? acc : acc * act_slope(pc.act, A[e]);
}
