#version 450
// Global average pool forward on NCHW float32 (engine/train/pool_plan.hpp): workgroup p (a plane n·C + c)
// sums its H·W values, every 64th in order per invocation and the 64 partials in a tree
// (workgroup_sum.glsl), and writes y[p] = sum / (H·W).
layout(local_size_x = 64) in;
#include "workgroup_sum.glsl"

layout(push_constant) uniform Push {
    uint planes;
    uint hw;
} pc;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };

void main() {
    uint p = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    if (p >= pc.planes) return;  // the whole workgroup leaves: no barrier is skipped by part of it
    float acc = 0.0;
    for (uint t = gl_LocalInvocationID.x; t < pc.hw; t += gl_WorkGroupSize.x) acc += x[p * pc.hw + t];
    float total = wg_sum_a(acc);
    if (gl_LocalInvocationID.x == 0u) y[p] = total / float(pc.hw);
}
