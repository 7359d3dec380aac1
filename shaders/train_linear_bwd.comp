#version 450
// Training: a small Linear's backward in one pass, one workgroup of 64 (train_linear_backward.glsl): dX[n, i] =
// Σₒ dY[n, o]·W[o, i] in order of o, times f'(X[n, i]) of the activation act whose output the input X is (0:
// none), a barrier, then dW, db in order of n and, with sgd, SGD's step on W and b; train_linear_dx's and
// train_linear_dw's sums. The planner takes it where both fit a workgroup (train_linear_fits_workgroup) and
// the device binds its 9 storage buffers.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint act; uint sgd; float lr; float momentum; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer Xb { float X[]; };
layout(std430, binding = 2) buffer Wb { float W[]; };
layout(std430, binding = 3) buffer Bb { float B[]; };
layout(std430, binding = 4) writeonly buffer DXb { float DX[]; };
layout(std430, binding = 5) writeonly buffer DWb { float DW[]; };
layout(std430, binding = 6) writeonly buffer DBb { float DB[]; };
layout(std430, binding = 7) buffer MWb { float MW[]; };
layout(std430, binding = 8) buffer MBb { float MB[]; };
#include "train_linear_block.glsl"
#include "train_act_common.glsl"
#define DZ DY
#define A X
#include "train_linear_dx_rows.glsl"
#include "train_linear_dw_rows.glsl"
#include "train_linear_backward.glsl"
void main() { linear_backward(gl_LocalInvocationID.x); }
