#version 450
// Training: Linear's parameter gradients dW[o, i] = Σₙ dY[n, o]·X[n, i] and db[o] = Σₙ dY[n, o], each sum
// in order of n. One invocation per block of 4 outputs × 4 columns of (W | b) (train_linear_blocks with
// In + 1 columns; column In is the bias, whose X is 1). sgd ≠ 0: the same invocation then takes
// train_sgd.comp's step on each of its parameters (W or b) with its momentum buffer (MW or MB), so a
// layer's update needs no pass of its own (the passes that read W before the update run before this one).
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
// One parameter's gradient g and, with sgd, its step: momentum buffer m ← μ·m + g, p ← p − lr·m.
void store(uint o, uint i, float g) {
    if (i == pc.In) {
        DB[o] = g;
        if (pc.sgd == 0u) return;
        float m = pc.momentum * MB[o] + g;
        MB[o] = m;
        B[o] -= pc.lr * m;
    } else {
        uint w = o * pc.In + i;
        DW[w] = g;
        if (pc.sgd == 0u) return;
        float m = pc.momentum * MW[w] + g;
        MW[w] = m;
        W[w] -= pc.lr * m;
    }
}
void main() {
    uint cb = (pc.In + 4u) / 4u, e = gl_GlobalInvocationID.x;
    if (e >= cb * ((pc.Out + 3u) / 4u)) return;
    uint o0 = e / cb * 4u, i0 = e % cb * 4u;
    float acc[4][4];
    block_zero(acc);
    for (uint n = 0u; n < pc.N; ++n) {
        float dy[4], x[4];  // rows and columns past the end load the last one's values, never stored
        for (uint a = 0u; a < 4u; ++a) dy[a] = DY[n * pc.Out + min(o0 + a, pc.Out - 1u)];
        for (uint b = 0u; b < 4u; ++b) x[b] = i0 + b < pc.In ? X[n * pc.In + min(i0 + b, pc.In - 1u)] : 1.0;
        block_fma(acc, dy, x);
    }
    for (uint a = 0u; a < 4u; ++a)
        for (uint b = 0u; b < 4u; ++b)
            if (o0 + a < pc.Out && i0 + b <= pc.In) store(o0 + a, i0 + b, acc[a][b]);
}
