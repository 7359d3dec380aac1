#version 450
// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp), both
// reductions over N·H·W: workgroup g < Cout·Cin·9 sums ∂W[g] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1];
// workgroup Cout·Cin·9 + co sums ∂b[co] = Σ_n,i,j dy[n,co,i,j]. Each invocation sums every 64th position in
// order (⌈N·H·W/64⌉ terms), then the workgroup adds its 64 partials in a tree (workgroup_sum.glsl), so a
// sum of N·H·W float32 terms carries the rounding of ⌈N·H·W/64⌉ + 6 additions, not of N·H·W.
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

void main() {
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint weights = pc.cout * pc.cin * 9u;
    if (g >= weights + pc.cout) return;  // the whole workgroup leaves: no barrier is skipped by part of it
    bool bias = g >= weights;
    uint co = bias ? g - weights : g / (pc.cin * 9u);
    uint ci = (g / 9u) % pc.cin;
    int ky = int(g % 9u) / 3, kx = int(g % 3u);
    uint hw = pc.h * pc.w;
    float acc = 0.0;
    for (uint t = gl_LocalInvocationID.x; t < pc.n * hw; t += gl_WorkGroupSize.x) {
        uint n = t / hw, p = t % hw;
        float d = dy[(n * pc.cout + co) * hw + p];
        if (bias) {
            acc += d;
            continue;
        }
        int yi = int(p / pc.w) + ky - 1, xj = int(p % pc.w) + kx - 1;
        if (yi < 0 || yi >= int(pc.h) || xj < 0 || xj >= int(pc.w)) continue;
        acc += d * x[(n * pc.cin + ci) * hw + uint(yi) * pc.w + uint(xj)];
    }
    float total = wg_sum_a(acc);
    if (gl_LocalInvocationID.x == 0u) {
        if (bias) db[co] = total;
        else dw[g] = total;
    }
}
