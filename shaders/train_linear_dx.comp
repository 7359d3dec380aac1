#version 450
// Training: Linear's input gradient dX[n, i] = Σₒ dY[n, o]·W[o, i], times f'(·) of the activation that
// produced that input, from its output in A (act: train_act_common.glsl's; 0 none, A unused). One
// invocation per block of 4 samples × 4 inputs (train_linear_blocks), each sum in order of o.
layout(local_size_x = 64) in;
#include "train_linear_block.glsl"
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint act; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer Wb { float W[]; };
layout(std430, binding = 2) writeonly buffer DXb { float DX[]; };
layout(std430, binding = 3) readonly buffer Ab { float A[]; };
#include "train_act_common.glsl"
void main() {
    uint ib = (pc.In + 3u) / 4u, e = gl_GlobalInvocationID.x;
    if (e >= ib * ((pc.N + 3u) / 4u)) return;
    uint n0 = e / ib * 4u, i0 = e % ib * 4u;
    float acc[4][4];
    block_zero(acc);
    for (uint o = 0u; o < pc.Out; ++o) {
        float dy[4], w[4];  // rows and columns past the end load the last one's values, never stored
        for (uint a = 0u; a < 4u; ++a) dy[a] = DY[min(n0 + a, pc.N - 1u) * pc.Out + o];
        for (uint b = 0u; b < 4u; ++b) w[b] = W[o * pc.In + min(i0 + b, pc.In - 1u)];
        block_fma(acc, dy, w);
    }
    for (uint a = 0u; a < 4u; ++a)
        for (uint b = 0u; b < 4u; ++b) {
            uint n = n0 + a, i = i0 + b;
            if (n >= pc.N || i >= pc.In) continue;
            uint e2 = n * pc.In + i;
            DX[e2] = pc.act == 0u ? acc[a][b] : acc[a][b] * act_slope(pc.act, A[e2]);
        }
}
