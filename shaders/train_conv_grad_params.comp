#version 450
// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp), both
// reductions over N·H·W. Workgroup g < Cout·Cin sums the 9 weights of (co, ci) = (g / Cin, g % Cin):
// ∂W[co,ci,ky,kx] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1]: each invocation walks every 64th row
// (n, i) of the planes, dy loaded once for all 9 and x through a 3×3 window slid along the row, so it
// sums ⌈N·H/64⌉·W terms in order; then the workgroup adds its 64 partials in a tree (workgroup_sum.glsl):
// a sum of N·H·W float32 terms carries the rounding of ⌈N·H/64⌉·W + 6 additions, not of N·H·W.
// Workgroup Cout·Cin + co sums ∂b[co] = Σ_n,i,j dy[n,co,i,j], every 64th element per invocation
// (⌈N·H·W/64⌉ + 6 additions).
// Writes ∂W and ∂b (no accumulation).
layout(local_size_x = 64) in;
#include "workgroup_sum.glsl"

layout(push_constant) uniform Push {
    uint n;
    uint cin;
    uint cout;
    uint h;
    uint w;
} pc;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer DY { float dy[]; };
layout(std430, binding = 2) writeonly buffer DW { float dw[]; };
layout(std430, binding = 3) writeonly buffer DB { float db[]; };

// x[n, ci, yi, xj] of the plane at xb, 0 outside the image (the index clamped, so that a load the compiler
// hoists out of the condition stays in bounds).
float x_at(uint xb, int yi, int xj) {
    int h = int(pc.h), w = int(pc.w);
    float v = x[xb + uint(clamp(yi, 0, h - 1) * w + clamp(xj, 0, w - 1))];
    return (yi >= 0 && yi < h && xj >= 0 && xj < w) ? v : 0.0;
}

void main() {
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint pairs = pc.cout * pc.cin;
    if (g >= pairs + pc.cout) return;  // the whole workgroup leaves: no barrier is skipped by part of it
    uint hw = pc.h * pc.w;
    if (g >= pairs) {
        uint co = g - pairs;
        float acc = 0.0;
        for (uint t = gl_LocalInvocationID.x; t < pc.n * hw; t += gl_WorkGroupSize.x)
            acc += dy[((t / hw) * pc.cout + co) * hw + t % hw];
        float total = wg_sum_a(acc);
        if (gl_LocalInvocationID.x == 0u) db[co] = total;
        return;
    }
    uint co = g / pc.cin, ci = g % pc.cin;
    float acc[9] = float[9](0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    int w = int(pc.w);
    for (uint r = gl_LocalInvocationID.x; r < pc.n * pc.h; r += gl_WorkGroupSize.x) {
        uint n = r / pc.h;
        int i = int(r % pc.h);
        uint db = (n * pc.cout + co) * hw + uint(i) * pc.w, xb = (n * pc.cin + ci) * hw;
        // win[ky·3 + kx] = x[n, ci, i+ky−1, j+kx−1] (0 outside), slid along the row.
        float win[9];
        for (int ky = 0; ky < 3; ++ky) {
            win[ky * 3] = 0.0;
            win[ky * 3 + 1] = x_at(xb, i + ky - 1, 0);
            win[ky * 3 + 2] = x_at(xb, i + ky - 1, 1);
        }
        for (int j = 0; j < w; ++j) {
            float d = dy[db + uint(j)];
            for (int k = 0; k < 9; ++k) acc[k] += d * win[k];
            for (int ky = 0; ky < 3; ++ky) {
                win[ky * 3] = win[ky * 3 + 1];
                win[ky * 3 + 1] = win[ky * 3 + 2];
                win[ky * 3 + 2] = x_at(xb, i + ky - 1, j + 2);
            }
        }
    }
    for (int k = 0; k < 9; ++k) {
        float total = wg_sum_a(acc[k]);
        if (gl_LocalInvocationID.x == 0u) dw[g * 9u + uint(k)] = total;
    }
}
