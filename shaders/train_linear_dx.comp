#version 450
// Training: Linear's input gradient dX[n, i] = Σₒ dY[n, o]·W[o, i], times f'(·) of the activation that
// produced that input, from its output in A (act: train_act_common.glsl's; 0 none, A unused). One
// invocation per block of 4 samples × 4 inputs (train_linear_blocks), each sum in order of o
// (train_linear_dx_rows.glsl; dY is the gradient at the Linear's output z: DZ).
layout(local_size_x = 64) in;
#include "train_linear_block.glsl"
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint act; } pc;
layout(std430, binding = 0) readonly buffer DZb { float DZ[]; };
layout(std430, binding = 1) readonly buffer Wb { float W[]; };
layout(std430, binding = 2) writeonly buffer DXb { float DX[]; };
layout(std430, binding = 3) readonly buffer Ab { float A[]; };
#include "train_act_common.glsl"
#include "train_linear_dx_rows.glsl"
void main() {
    uint ib = (pc.In + 3u) / 4u, e = gl_GlobalInvocationID.x;
    if (e >= ib * ((pc.N + 3u) / 4u)) return;
    linear_dx_block(e / ib * 4u, e % ib * 4u);
}
