#version 450
// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp), both
// reductions over N·H·W. Workgroup g < Cout·Cin sums the 9 weights of (co, ci) = (g / Cin, g % Cin):
// ∂W[co,ci,ky,kx] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1]: each invocation walks every 64th row
// (n, i) of the planes, dy loaded once for all 9 and x through a 3×3 window slid along the row, so it
// sums ⌈N·H/64⌉·W terms in order; then the workgroup adds its 64 partials of the 9 weights in one tree
// (wg_tree_sum's order, all 9 at each level: 7 barriers, not 9 sums' 72 on a device without subgroups):
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

shared float part[9][gl_WorkGroupSize.x];  // part[k][invocation]: weight k's partial sums

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
    // a<ky><kx>: weight (ky, kx)'s partial sum; t<kx>, m<kx>, b<kx>: x[n, ci, i−1 / i / i+1, j+kx−1] (0
    // outside), the 3×3 window slid along the row. Scalars, not arrays: on lavapipe a local array indexed by a
    // loop counter costs a loop over the SIMD lanes per access, several times the arithmetic.
    float a00 = 0.0, a01 = 0.0, a02 = 0.0, a10 = 0.0, a11 = 0.0, a12 = 0.0, a20 = 0.0, a21 = 0.0, a22 = 0.0;
    int w = int(pc.w);
    for (uint r = gl_LocalInvocationID.x; r < pc.n * pc.h; r += gl_WorkGroupSize.x) {
        uint n = r / pc.h;
        int i = int(r % pc.h);
        uint db = (n * pc.cout + co) * hw + uint(i) * pc.w, xb = (n * pc.cin + ci) * hw;
        float t0 = 0.0, t1 = x_at(xb, i - 1, 0), t2 = x_at(xb, i - 1, 1);
        float m0 = 0.0, m1 = x_at(xb, i, 0), m2 = x_at(xb, i, 1);
        float b0 = 0.0, b1 = x_at(xb, i + 1, 0), b2 = x_at(xb, i + 1, 1);
        for (int j = 0; j < w; ++j) {
            float d = dy[db + uint(j)];
            a00 += d * t0;
            a01 += d * t1;
            a02 += d * t2;
            a10 += d * m0;
            a11 += d * m1;
            a12 += d * m2;
            a20 += d * b0;
            a21 += d * b1;
            a22 += d * b2;
            t0 = t1;
            t1 = t2;
            t2 = x_at(xb, i - 1, j + 2);
            m0 = m1;
            m1 = m2;
            m2 = x_at(xb, i, j + 2);
            b0 = b1;
            b1 = b2;
            b2 = x_at(xb, i + 1, j + 2);
        }
    }
    // The 9 sums in one tree (workgroup_sum.glsl's wg_tree_sum order, 7 barriers for all 9).
    uint t = gl_LocalInvocationID.x;
    part[0][t] = a00;
    part[1][t] = a01;
    part[2][t] = a02;
    part[3][t] = a10;
    part[4][t] = a11;
    part[5][t] = a12;
    part[6][t] = a20;
    part[7][t] = a21;
    part[8][t] = a22;
    barrier();  // all partial sums stored before the first level reads them
    for (uint stride = gl_WorkGroupSize.x / 2u; stride > 0u; stride >>= 1u) {
        if (t < stride) {
            for (int k = 0; k < 9; ++k) part[k][t] += part[k][t + stride];
        }
        barrier();  // this level's sums written before the next level reads them
    }
    if (t < 9u) dw[g * 9u + t] = part[t][0];
}
