#version 450
// Conv2d(Cin, Cout, 3, stride 1, padding 1) forward on NCHW float32 (engine/train/conv_plan.hpp):
// y[n,co,i,j] = b[co] + Σ_ci Σ_ky,kx W[co,ci,ky,kx]·x[n,ci,i+ky−1,j+kx−1] (x zero outside the image),
// summed in order: Cin·9 + 1 terms. An invocation computes 4 output channels co0 … co0+3 at 4 pixels
// (i, j0 … j0+3) of a row, so each weight serves 4 pixels and each x value up to 12 sums.
// Invocation id = ((co0/4)·N + n)·H·⌈W/4⌉ + i·⌈W/4⌉ + j0/4: the channel block varies slowest, so the
// invocations of a subgroup usually share co0 and with it the 36 weights of each input channel. With
// subgroup ballots (NL_SUBGROUP_BALLOT, conv_weights.glsl) such a subgroup loads them 8 at a time, lane L
// the L-th, and broadcasts each: on lavapipe every buffer load is a loop over the SIMD lanes, so this cuts
// an invocation's loads per input channel from 54 to 23. The sums are the same either way.
// Channels past Cout repeat the last one's weights and pixels past W read padding; neither is written.
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint n;
    uint cin;
    uint cout;
    uint h;
    uint w;
} pc;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Wt { float wt[]; };
layout(std430, binding = 2) readonly buffer B { float b[]; };
layout(std430, binding = 3) writeonly buffer Y { float y[]; };

float weight_at(uint k) { return wt[k]; }
#include "conv_weights.glsl"

// x[n, ci, yi, j0 − 1 + c] of the plane at xb, 0 outside the image (the index clamped, so that a load the
// compiler hoists out of the condition stays in bounds).
#define NL_X(C) ((j0 + (C) - 1 >= 0 && j0 + (C) - 1 < w) ? x[rb + uint(clamp(j0 + (C) - 1, 0, w - 1))] : 0.0)
// Row yi of the window, x[yi, j0−1 … j0+4] (skipped outside the image), times the row's taps W0, W1, W2 into
// the pixels' sums a0 … a3, one term at a time. Written out: on lavapipe a local array indexed by a loop
// counter costs a loop over the SIMD lanes per access, several times the arithmetic.
#define NL_ROW(YI, W0, W1, W2) { \
    int yi = (YI); \
    if (yi >= 0 && yi < h) { \
        uint rb = xb + uint(yi * w); \
        float r0 = NL_X(0), r1 = NL_X(1), r2 = NL_X(2), r3 = NL_X(3), r4 = NL_X(4), r5 = NL_X(5); \
        a0 += W0 * r0; a1 += W0 * r1; a2 += W0 * r2; a3 += W0 * r3; \
        a0 += W1 * r1; a1 += W1 * r2; a2 += W1 * r3; a3 += W1 * r4; \
        a0 += W2 * r2; a1 += W2 * r3; a2 += W2 * r4; a3 += W2 * r5; \
    } }

void main() {
    uint id = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x
              + gl_LocalInvocationID.x;
    uint qw = (pc.w + 3u) / 4u, quads = pc.h * qw;
    uint cblocks = (pc.cout + 3u) / 4u, total = pc.n * cblocks * quads;
    // No invocation leaves early: the subgroup's weights need every lane. Those past the end redo the
    // last block and write nothing.
    bool live = id < total;
    id = min(id, total - 1u);
    uint plane = id / quads;  // (co0/4)·N + n
    uint co0 = (plane / pc.n) * 4u, n = plane % pc.n;
    uint q = id % quads;
    int h = int(pc.h), w = int(pc.w);
    int i = int(q / qw), j0 = int(q % qw) * 4;
    uint cn = min(4u, pc.cout - co0), ws = pc.cin * 9u;
    // wbase[c]: channel co0 + c's weights (the last channel's past Cout); weight (c, ci, k) at wbase[c] + ci·9 + k.
    uint wbase[4] = uint[4](co0 * ws, min(co0 + 1u, pc.cout - 1u) * ws, min(co0 + 2u, pc.cout - 1u) * ws,
                            min(co0 + 3u, pc.cout - 1u) * ws);
    vec4 bias = vec4(b[co0], b[wbase[1] / ws], b[wbase[2] / ws], b[wbase[3] / ws]);
    vec4 a0 = bias, a1 = bias, a2 = bias, a3 = bias;  // pixel p's 4 channels in a<p>
    WeightLanes lanes = weight_lanes(co0, wbase);
    for (uint ci = 0u; ci < pc.cin; ++ci) {
        vec4 wv[9];  // wv[ky·3 + kx][c] = W[co0 + c, ci, ky, kx]
        block_weights(lanes, wbase, ci * 9u, wv);
        uint xb = (n * pc.cin + ci) * pc.h * pc.w;
        NL_ROW(i - 1, wv[0], wv[1], wv[2]);
        NL_ROW(i, wv[3], wv[4], wv[5]);
        NL_ROW(i + 1, wv[6], wv[7], wv[8]);
    }
    if (!live) return;
    vec4 acc[4] = vec4[4](a0, a1, a2, a3);
    for (int p = 0; p < 4; ++p) {
        if (j0 + p >= w) break;
        uint o = (n * pc.cout + co0) * pc.h * pc.w + uint(i * w + j0 + p);
        for (uint c = 0u; c < cn; ++c) y[o + c * pc.h * pc.w] = acc[p][c];
    }
}
