#version 450
// Training: a row norm's input gradient (layer, rms, group: sets inside a sample's row, sets/N a row) and
// the gradient through the Linear before it, in one pass: DZ = the norm's dX from DY (train_norm_bwd.comp's
// serial code, train_norm_set_bwd.glsl), then DX[n, i] = Σₒ DZ[n, o]·W[o, i] · f'(A[n, i]) (train_linear_dx's
// blocks, train_linear_dx_rows.glsl), so every value is bit for bit what those two passes give. One invocation
// per 4 samples. Words: the norm's layout words (10), flags, then the Linear's N, In, Out, act.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint sets; uint members; uint set_inner; uint set_outer_stride; uint set_inner_stride;
    uint member_inner; uint member_outer_stride; uint member_inner_stride; uint channels; uint channel_stride;
    uint flags; uint N; uint In; uint Out; uint act;
} pc;
#include "train_linear_block.glsl"
#include "train_norm_common.glsl"
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer XHb { float XHAT[]; };
layout(std430, binding = 2) readonly buffer Sb { float STATS[]; };
layout(std430, binding = 3) readonly buffer Gb { float GAMMA[]; };
layout(std430, binding = 4) buffer DZb { float DZ[]; };
layout(std430, binding = 5) readonly buffer Wb { float W[]; };
layout(std430, binding = 6) writeonly buffer DXb { float DX[]; };
layout(std430, binding = 7) readonly buffer Ab { float A[]; };
#include "train_act_common.glsl"
#include "train_norm_set_bwd.glsl"
#include "train_linear_dx_rows.glsl"
void main() {
    uint n0 = gl_GlobalInvocationID.x * 4u;
    if (n0 >= pc.N) return;
    uint per_row = pc.sets / pc.N, last = min(n0 + 4u, pc.N);
    for (uint s = n0 * per_row; s < last * per_row; ++s) {
        vec2 p = norm_bwd_parts(s, 0u, 1u);
        norm_bwd_write(s, 0u, 1u, p.x, p.y);
    }
    for (uint i0 = 0u; i0 < pc.In; i0 += 4u) linear_dx_block(n0, i0);
}
