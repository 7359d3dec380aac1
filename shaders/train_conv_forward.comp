#version 450
// Conv2d(Cin, Cout, 3, stride 1, padding 1) forward on NCHW float32 (engine/train/conv_plan.hpp):
// y[n,co,i,j] = b[co] + Σ_ci Σ_ky,kx W[co,ci,ky,kx]·x[n,ci,i+ky−1,j+kx−1] (x zero outside the image),
// summed in order: Cin·9 + 1 terms. An invocation computes 4 output channels co0 … co0+3 at 4 pixels
// (i, j0 … j0+3) of a row, so each weight it loads serves 4 pixels and each x value up to 12 sums.
// Invocation id = (n·⌈Cout/4⌉ + co0/4)·H·⌈W/4⌉ + i·⌈W/4⌉ + j0/4.
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

void main() {
    uint id = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x
              + gl_LocalInvocationID.x;
    uint qw = (pc.w + 3u) / 4u, quads = pc.h * qw;
    uint cblocks = (pc.cout + 3u) / 4u;
    uint plane = id / quads;  // n·⌈Cout/4⌉ + co0/4
    if (plane >= pc.n * cblocks) return;
    uint co0 = (plane % cblocks) * 4u, n = plane / cblocks;
    uint q = id % quads;
    int h = int(pc.h), w = int(pc.w);
    int i = int(q / qw), j0 = int(q % qw) * 4;
    uint cn = min(4u, pc.cout - co0), ws = pc.cin * 9u;
    uint w0 = co0 * ws, w1 = min(co0 + 1u, pc.cout - 1u) * ws;
    uint w2 = min(co0 + 2u, pc.cout - 1u) * ws, w3 = min(co0 + 3u, pc.cout - 1u) * ws;
    vec4 bias = vec4(b[co0], b[w1 / ws], b[w2 / ws], b[w3 / ws]);
    vec4 acc[4] = vec4[4](bias, bias, bias, bias);  // acc[pixel][channel]
    for (uint ci = 0u; ci < pc.cin; ++ci) {
        uint xb = (n * pc.cin + ci) * pc.h * pc.w;
        for (int ky = 0; ky < 3; ++ky) {
            int yi = i + ky - 1;
            if (yi < 0 || yi >= h) continue;
            float r[6];  // x[yi, j0−1 … j0+4], 0 outside (the index clamped: the load stays in bounds)
            for (int c = 0; c < 6; ++c) {
                int xj = j0 + c - 1;
                float v = x[xb + uint(yi * w + clamp(xj, 0, w - 1))];
                r[c] = (xj >= 0 && xj < w) ? v : 0.0;
            }
            for (int kx = 0; kx < 3; ++kx) {
                uint k = ci * 9u + uint(ky * 3 + kx);
                vec4 wv = vec4(wt[w0 + k], wt[w1 + k], wt[w2 + k], wt[w3 + k]);
                for (int p = 0; p < 4; ++p) acc[p] += wv * r[kx + p];
            }
        }
    }
    for (int p = 0; p < 4; ++p) {
        if (j0 + p >= w) break;
        uint o = (n * pc.cout + co0) * pc.h * pc.w + uint(i * w + j0 + p);
        for (uint c = 0u; c < cn; ++c) y[o + c * pc.h * pc.w] = acc[p][c];
    }
}
