#version 450
// The memory-bound floor the normalization kernels are scored against (normlab-bench).
// GRID = 0: each invocation copies VEC4S vec4s, consecutive invocations consecutive vec4s,
// one workgroup per WorkGroupSize·VEC4S vec4s. GRID = 1: a fixed number of workgroups
// strides over the whole buffer (VEC4S vec4s in flight per invocation per step).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VEC4S = 4;
layout(constant_id = 2) const uint GRID = 0;

layout(push_constant) uniform Push {
    uint vec4_count;
    uint groups_x;
} pc;

layout(std430, binding = 0) readonly buffer Src { vec4 SRC[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 DST[]; };

void main() {
    uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * pc.groups_x;
    if (GRID == 0u) {
        uint start = wg * gl_WorkGroupSize.x * VEC4S + gl_LocalInvocationID.x;
        for (uint j = 0u; j < VEC4S; ++j) {
            uint i = start + j * gl_WorkGroupSize.x;
            if (i < pc.vec4_count) DST[i] = SRC[i];
        }
        return;
    }
    uint threads = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
    uint step = threads * VEC4S;
    for (uint base = wg * gl_WorkGroupSize.x + gl_LocalInvocationID.x; base < pc.vec4_count; base += step) {
        for (uint j = 0u; j < VEC4S; ++j) {
            uint i = base + j * threads;
            if (i < pc.vec4_count) DST[i] = SRC[i];
        }
    }
}
