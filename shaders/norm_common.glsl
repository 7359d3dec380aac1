// Shared by the normalization kernels: the push constants that carry a StatLayout
// (engine/include/normlab/stat_layout.hpp), the buffer bindings and the layout functions.
//
// Statistic s covers elements e < count at  s*stat_stride + (e/segment_len)*segment_stride + e%segment_len;
// the statistic of flat offset i is (i/stat_stride) % stat_count, its γ/β index (i/param_stride) % param_count.

layout(push_constant) uniform Push {
    uint stat_count;
    uint segments;
    uint segment_len;
    uint segment_stride;
    uint stat_stride;
    uint param_count;
    uint param_stride;
    uint count;       // elements per statistic
    uint chunks;      // workgroups per statistic in the statistics kernel
    uint chunk_len;   // elements per chunk (workgroup size × values per invocation)
    uint numel;
    uint flags;       // FLAG_WEIGHT | FLAG_BIAS
    uint groups_x;    // dispatch width, to linearize 2-D workgroup ids
    float eps;
} pc;

const uint FLAG_WEIGHT = 1u;
const uint FLAG_BIAS = 2u;

layout(std430, binding = 0) readonly buffer XBuf { float X[]; };
layout(std430, binding = 1) writeonly buffer YBuf { float Y[]; };
layout(std430, binding = 2) readonly buffer WBuf { float W[]; };
layout(std430, binding = 3) readonly buffer BBuf { float B[]; };
// Per statistic: (shift K, mean of x−K, biased variance or mean square, 1/sqrt(var + eps)).
layout(std430, binding = 4) buffer StatBuf { vec4 STATS[]; };
// Per (statistic, chunk): (count, mean of x−K, M2 = Σ(x−K−mean)², unused).
layout(std430, binding = 5) buffer PartialBuf { vec4 PARTIALS[]; };

uint linear_workgroup() { return gl_WorkGroupID.x + gl_WorkGroupID.y * pc.groups_x; }

uint element_offset(uint base, uint e) {
    if (pc.segments == 1u) return base + e;
    uint j = e / pc.segment_len;
    return base + j * pc.segment_stride + (e - j * pc.segment_len);
}

uint stat_of(uint i) { return (i / pc.stat_stride) % pc.stat_count; }
uint param_of(uint i) { return (i / pc.param_stride) % pc.param_count; }

float affine(float xhat, uint i) {
    if (pc.flags != 0u) {
        uint p = param_of(i);
        if ((pc.flags & FLAG_WEIGHT) != 0u) xhat *= W[p];
        if ((pc.flags & FLAG_BIAS) != 0u) xhat += B[p];
    }
    return xhat;
}
