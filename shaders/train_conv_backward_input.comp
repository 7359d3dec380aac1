#version 450
// Conv2d 3×3 (padding 1) backward to its input on NCHW float32 (engine/train/conv_plan.hpp):
// dx[n,ci,i,j] = Σ_co Σ_ky,kx W[co,ci,ky,kx]·dy[n,co,i−ky+1,j−kx+1] (dy zero outside the image), summed in
// order: Cout·9 terms. An invocation computes 4 input channels ci0 … ci0+3 at 4 pixels (i, j0 … j0+3) of
// a row, so each weight serves 4 pixels and each dy value up to 12 sums. Invocation
// id = ((ci0/4)·N + n)·H·⌈W/4⌉ + i·⌈W/4⌉ + j0/4: the channel block varies slowest, so a subgroup usually
// shares ci0 and loads the 36 weights of each output channel once (NL_SUBGROUP_BALLOT, conv_weights.glsl).
// Channels past Cin repeat the last one's weights and pixels past W read padding; neither is written.
// Writes dx (no accumulation).
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint n;
    uint cin;
    uint cout;
    uint h;
    uint w;
} pc;

layout(std430, binding = 0) readonly buffer DY { float dy[]; };
layout(std430, binding = 1) readonly buffer Wt { float wt[]; };
layout(std430, binding = 2) writeonly buffer DX { float dx[]; };

float weight_at(uint k) { return wt[k]; }
#include "conv_weights.glsl"

// dy[n, co, yo, j0 − 1 + c] of the plane at db, 0 outside the image (the index clamped, so that a load the
// compiler hoists out of the condition stays in bounds).
#define NL_DY(C) ((j0 + (C) - 1 >= 0 && j0 + (C) - 1 < w) ? dy[rb + uint(clamp(j0 + (C) - 1, 0, w - 1))] : 0.0)
// Row yo of dy, dy[yo, j0−1 … j0+4] (skipped outside the image), times the taps W0, W1, W2 of kernel row
// i − yo + 1 into the pixels' sums a0 … a3, one term at a time. Written out: on lavapipe a local array
// indexed by a loop counter costs a loop over the SIMD lanes per access, several times the arithmetic.
#define NL_ROW(YO, W0, W1, W2) { \
    int yo = (YO); \
    if (yo >= 0 && yo < h) { \
        uint rb = db + uint(yo * w); \
        float r0 = NL_DY(0), r1 = NL_DY(1), r2 = NL_DY(2), r3 = NL_DY(3), r4 = NL_DY(4), r5 = NL_DY(5); \
        a0 += W0 * r2; a1 += W0 * r3; a2 += W0 * r4; a3 += W0 * r5; \
        a0 += W1 * r1; a1 += W1 * r2; a2 += W1 * r3; a3 += W1 * r4; \
        a0 += W2 * r0; a1 += W2 * r1; a2 += W2 * r2; a3 += W2 * r3; \
    } }

void main() {
    uint id = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x
              + gl_LocalInvocationID.x;
    uint qw = (pc.w + 3u) / 4u, quads = pc.h * qw;
    uint cblocks = (pc.cin + 3u) / 4u, total = pc.n * cblocks * quads;
    // No invocation leaves early: the subgroup's weights need every lane. Those past the end redo the
    // last block and write nothing.
    bool live = id < total;
    id = min(id, total - 1u);
    uint plane = id / quads;  // (ci0/4)·N + n
    uint ci0 = (plane / pc.n) * 4u, n = plane % pc.n;
    uint q = id % quads;
    int h = int(pc.h), w = int(pc.w);
    int i = int(q / qw), j0 = int(q % qw) * 4;
    uint cn = min(4u, pc.cin - ci0), hw = pc.h * pc.w;
    // Weight (co, ci0 + c, k) at co·Cin·9 + base[c] + k (the last channel's past Cin).
    uint base[4] = uint[4](ci0 * 9u, (ci0 + min(1u, cn - 1u)) * 9u, (ci0 + min(2u, cn - 1u)) * 9u,
                           (ci0 + min(3u, cn - 1u)) * 9u);
    WeightLanes lanes = weight_lanes(ci0, base);
    vec4 a0 = vec4(0.0), a1 = vec4(0.0), a2 = vec4(0.0), a3 = vec4(0.0);  // pixel p's 4 channels in a<p>
    for (uint co = 0u; co < pc.cout; ++co) {
        vec4 wv[9];  // wv[ky·3 + kx][c] = W[co, ci0 + c, ky, kx]
        block_weights(lanes, base, co * pc.cin * 9u, wv);
        uint db = (n * pc.cout + co) * hw;
        NL_ROW(i + 1, wv[0], wv[1], wv[2]);
        NL_ROW(i, wv[3], wv[4], wv[5]);
        NL_ROW(i - 1, wv[6], wv[7], wv[8]);
    }
    if (!live) return;
    vec4 acc[4] = vec4[4](a0, a1, a2, a3);
    for (int p = 0; p < 4; ++p) {
        if (j0 + p >= w) break;
        uint o = (n * pc.cin + ci0) * hw + uint(i * w + j0 + p);
        for (uint c = 0u; c < cn; ++c) dx[o + c * hw] = acc[p][c];
    }
}
