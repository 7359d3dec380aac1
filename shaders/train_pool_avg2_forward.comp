#version 450
// AvgPool2d(2) forward on NCHW float32 (engine/train/pool_plan.hpp): one invocation per output element,
// y[p,i,j] = (x[p,2i,2j] + x[p,2i,2j+1] + x[p,2i+1,2j] + x[p,2i+1,2j+1]) / 4 over planes p = n·C + c; an odd
// last row or column is dropped, as PyTorch floors.
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint planes;
    uint h;
    uint w;
} pc;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };

void main() {
    uint id = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x
              + gl_LocalInvocationID.x;
    uint ho = pc.h / 2u, wo = pc.w / 2u;
    if (id >= pc.planes * ho * wo) return;
    uint j = id % wo, i = (id / wo) % ho, p = id / (ho * wo);
    uint s = p * pc.h * pc.w + 2u * i * pc.w + 2u * j;
    y[id] = ((x[s] + x[s + 1u]) + (x[s + pc.w] + x[s + pc.w + 1u])) * 0.25;
}
