#version 450
// Training: a Linear followed by a row norm (layer, rms, group: contiguous sets inside a sample's row,
// sets/N of them a row) and its activation, in one pass: Z = X·Wᵀ + b (the norm's input, kept), then each
// set's mean and biased variance (rms: mean 0), rstd = 1/√(var + eps), XHAT = (z − mean)·rstd,
// Y = f(xhat·γ[c] (+ β[c])), STATS[2s] = mean, STATS[2s + 1] = rstd. One invocation per 4 samples: their
// Linear sums in train_linear.comp's blocks (train_linear_rows.glsl), their sets in train_norm_fwd.comp's
// serial code (train_norm_set.glsl), so every value is bit for bit what those two passes give.
// Words: N, In, Out, the norm's layout words (10), flags (train_plan.hpp; act = flags >> 5), eps.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint N; uint In; uint Out;
    uint sets; uint members; uint set_inner; uint set_outer_stride; uint set_inner_stride;
    uint member_inner; uint member_outer_stride; uint member_inner_stride; uint channels; uint channel_stride;
    uint flags; float eps;
} pc;
#include "train_linear_block.glsl"
#include "train_norm_common.glsl"
layout(std430, binding = 0) readonly buffer Xb { float X[]; };
layout(std430, binding = 1) readonly buffer Wb { float W[]; };
layout(std430, binding = 2) readonly buffer LBb { float B[]; };
layout(std430, binding = 3) buffer Zb { float Z[]; };
layout(std430, binding = 4) writeonly buffer Yb { float Y[]; };
layout(std430, binding = 5) writeonly buffer XHb { float XHAT[]; };
layout(std430, binding = 6) writeonly buffer Sb { float STATS[]; };
layout(std430, binding = 7) readonly buffer Gb { float GAMMA[]; };
layout(std430, binding = 8) readonly buffer Bb { float BETA[]; };
#include "train_act_common.glsl"
#include "train_linear_rows.glsl"
#include "train_norm_set.glsl"
void main() {
    uint n0 = gl_GlobalInvocationID.x * 4u;
    if (n0 >= pc.N) return;
    for (uint o0 = 0u; o0 < pc.Out; o0 += 4u) {
        float acc[4][4];
        linear_block_sums(n0, o0, acc);
        for (uint a = 0u; a < 4u; ++a)
            for (uint b = 0u; b < 4u; ++b) {
                uint n = n0 + a, o = o0 + b;
                if (n < pc.N && o < pc.Out) Z[n * pc.Out + o] = acc[a][b] + B[o];
            }
    }
    uint per_row = pc.sets / pc.N, last = min(n0 + 4u, pc.N);
    float M = float(pc.members);
    for (uint s = n0 * per_row; s < last * per_row; ++s) {
        float mean = (pc.flags & 1u) != 0u ? 0.0 : norm_part_sum(s, 0u, 1u) / M;
        float rstd = inversesqrt(norm_part_squares(s, 0u, 1u, mean) / M + pc.eps);
        STATS[2u * s] = mean;
        STATS[2u * s + 1u] = rstd;
        norm_write(s, 0u, 1u, mean, rstd, pc.flags >> 5u);
    }
}
