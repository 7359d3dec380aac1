#version 450
// Training: Linear's parameter gradients dW[o, i] = Σₙ dY[n, o]·X[n, i] and db[o] = Σₙ dY[n, o], each sum
// in order of n. One invocation per block of 4 outputs × 4 columns of (W | b) (train_linear_blocks with
// In + 1 columns; column In is the bias, whose X is 1). sgd ≠ 0: the same invocation then takes
// train_sgd.comp's step on each of its parameters (W or b) with its momentum buffer (MW or MB), so a
// layer's update needs no pass of its own (the passes that read W before the update run before this one;
// train_linear_dw_rows.glsl).
layout(local_size_x = 64) in;
#include "train_linear_block.glsl"
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint sgd; float lr; float momentum; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer Xb { float X[]; };
layout(std430, binding = 2) writeonly buffer DWb { float DW[]; };
layout(std430, binding = 3) writeonly buffer DBb { float DB[]; };
layout(std430, binding = 4) buffer Wb { float W[]; };
layout(std430, binding = 5) buffer Bb { float B[]; };
layout(std430, binding = 6) buffer MWb { float MW[]; };
layout(std430, binding = 7) buffer MBb { float MB[]; };
#include "train_linear_dw_rows.glsl"
void main() {
    uint cb = (pc.In + 4u) / 4u, e = gl_GlobalInvocationID.x;
    if (e >= cb * ((pc.Out + 3u) / 4u)) return;
    linear_dw_block(e / cb * 4u, e % cb * 4u);
}
