#version 450
// The memory-bound floor the normalization kernels are scored against (normlab-bench):
// each invocation copies VEC4S consecutive-by-workgroup vec4s from SRC to DST.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VEC4S = 4;

layout(push_constant) uniform Push {
    uint vec4_count;
    uint groups_x;
} pc;

layout(std430, binding = 0) readonly buffer Src { vec4 SRC[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 DST[]; };

void main() {
    uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * pc.groups_x;
    uint start = wg * gl_WorkGroupSize.x * VEC4S + gl_LocalInvocationID.x;
    for (uint j = 0u; j < VEC4S; ++j) {
        uint i = start + j * gl_WorkGroupSize.x;
        if (i < pc.vec4_count) DST[i] = SRC[i];
    }
}
