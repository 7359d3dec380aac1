#version 450
// Global average pool backward on NCHW float32 (engine/train/pool_plan.hpp): one invocation per input
// element, dx[p,k] = dy[p] / (H·W). Writes dx.
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint planes;
    uint hw;
} pc;

layout(std430, binding = 0) readonly buffer DY { float dy[]; };
layout(std430, binding = 1) writeonly buffer DX { float dx[]; };

void main() {
    uint id = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x
              + gl_LocalInvocationID.x;
    if (id >= pc.planes * pc.hw) return;
    dx[id] = dy[id / pc.hw] / float(pc.hw);
}
