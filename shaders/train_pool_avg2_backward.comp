#version 450
// AvgPool2d(2) backward on NCHW float32 (engine/train/pool_plan.hpp): one invocation per input element,
// dx[p,i,j] = dy[p,i/2,j/2] / 4, and 0 on an odd last row or column that the forward dropped. Writes dx.
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint planes;
    uint h;
    uint w;
} pc;

layout(std430, binding = 0) readonly buffer DY { float dy[]; };
layout(std430, binding = 1) writeonly buffer DX { float dx[]; };

void main() {
    uint id = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x
              + gl_LocalInvocationID.x;
    if (id >= pc.planes * pc.h * pc.w) return;
    uint j = id % pc.w, i = (id / pc.w) % pc.h, p = id / (pc.h * pc.w);
    uint ho = pc.h / 2u, wo = pc.w / 2u;
    dx[id] = (i < 2u * ho && j < 2u * wo) ? dy[(p * ho + i / 2u) * wo + j / 2u] * 0.25 : 0.0;
}
