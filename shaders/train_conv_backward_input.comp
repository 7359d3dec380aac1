#version 450
// Conv2d 3×3 (padding 1) backward to its input on NCHW float32 (engine/train/conv_plan.hpp):
// dx[n,ci,i,j] = Σ_co Σ_ky,kx W[co,ci,ky,kx]·dy[n,co,i−ky+1,j−kx+1] (zero outside the image), summed in
// order: at most Cout·9 terms. Workgroup g holds one n, four input channels ci0 … ci0+3 and 64 consecutive
// pixels (g = (n·⌈Cin/4⌉ + ci0/4)·⌈H·W/64⌉ + block); each invocation loads dy once for its four sums.
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

void main() {
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint hw = pc.h * pc.w;
    uint blocks = (hw + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
    uint cblocks = (pc.cin + 3u) / 4u;
    uint plane = g / blocks;  // n·⌈Cin/4⌉ + ci block
    if (plane >= pc.n * cblocks) return;
    uint ci0 = (plane % cblocks) * 4u, n = plane / cblocks;
    uint p = (g % blocks) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (p >= hw) return;
    int i = int(p / pc.w), j = int(p % pc.w);
    uint cn = min(4u, pc.cin - ci0);
    // The weights of input channels ci0 … ci0+3 (the last one repeated past Cin; those sums are not written).
    uint o1 = min(1u, cn - 1u) * 9u, o2 = min(2u, cn - 1u) * 9u, o3 = min(3u, cn - 1u) * 9u;
    vec4 acc = vec4(0.0);
    for (uint co = 0u; co < pc.cout; ++co) {
        uint db = (n * pc.cout + co) * hw, wb = (co * pc.cin + ci0) * 9u;
        for (int ky = 0; ky < 3; ++ky) {
            int yo = i - ky + 1;
            if (yo < 0 || yo >= int(pc.h)) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int xo = j - kx + 1;
                if (xo < 0 || xo >= int(pc.w)) continue;
                uint k = wb + uint(ky * 3 + kx);
                acc += vec4(wt[k], wt[k + o1], wt[k + o2], wt[k + o3]) * dy[db + uint(yo) * pc.w + uint(xo)];
            }
        }
    }
    uint ob = (n * pc.cin + ci0) * hw + p;
    dx[ob] = acc.x;
    if (cn > 1u) dx[ob + hw] = acc.y;
    if (cn > 2u) dx[ob + 2u * hw] = acc.z;
    if (cn > 3u) dx[ob + 3u * hw] = acc.w;
}
