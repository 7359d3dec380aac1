#version 450
// Conv2d 3×3 (padding 1) backward to its input on NCHW float32 (engine/train/conv_plan.hpp):
// dx[n,ci,i,j] = Σ_co Σ_ky,kx W[co,ci,ky,kx]·dy[n,co,i−ky+1,j−kx+1] (dy zero outside the image), summed in
// order: Cout·9 terms. An invocation computes 4 input channels ci0 … ci0+3 at 4 pixels (i, j0 … j0+3) of
// a row, so each weight it loads serves 4 pixels and each dy value up to 12 sums. Invocation
// id = (n·⌈Cin/4⌉ + ci0/4)·H·⌈W/4⌉ + i·⌈W/4⌉ + j0/4. Channels past Cin repeat the last one's weights and
// pixels past W read padding; neither is written. Writes dx (no accumulation).
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

void main() {
    uint id = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * gl_WorkGroupSize.x
              + gl_LocalInvocationID.x;
    uint qw = (pc.w + 3u) / 4u, quads = pc.h * qw;
    uint cblocks = (pc.cin + 3u) / 4u;
    uint plane = id / quads;  // n·⌈Cin/4⌉ + ci0/4
    if (plane >= pc.n * cblocks) return;
    uint ci0 = (plane % cblocks) * 4u, n = plane / cblocks;
    uint q = id % quads;
    int h = int(pc.h), w = int(pc.w);
    int i = int(q / qw), j0 = int(q % qw) * 4;
    uint cn = min(4u, pc.cin - ci0), hw = pc.h * pc.w;
    uint o1 = min(1u, cn - 1u) * 9u, o2 = min(2u, cn - 1u) * 9u, o3 = min(3u, cn - 1u) * 9u;
    vec4 acc[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));  // acc[pixel][channel]
    for (uint co = 0u; co < pc.cout; ++co) {
        uint db = (n * pc.cout + co) * hw, wb = (co * pc.cin + ci0) * 9u;
        for (int ky = 0; ky < 3; ++ky) {
            int yo = i - ky + 1;
            if (yo < 0 || yo >= h) continue;
            float r[6];  // dy[yo, j0−1 … j0+4], 0 outside (the index clamped: the load stays in bounds)
            for (int c = 0; c < 6; ++c) {
                int xo = j0 + c - 1;
                float v = dy[db + uint(yo * w + clamp(xo, 0, w - 1))];
                r[c] = (xo >= 0 && xo < w) ? v : 0.0;
            }
            for (int kx = 0; kx < 3; ++kx) {
                uint k = wb + uint(ky * 3 + kx);
                vec4 wv = vec4(wt[k], wt[k + o1], wt[k + o2], wt[k + o3]);
                for (int p = 0; p < 4; ++p) acc[p] += wv * r[p - kx + 2];
            }
        }
    }
    for (int p = 0; p < 4; ++p) {
        if (j0 + p >= w) break;
        uint o = (n * pc.cin + ci0) * hw + uint(i * w + j0 + p);
        for (uint c = 0u; c < cn; ++c) dx[o + c * hw] = acc[p][c];
    }
}
