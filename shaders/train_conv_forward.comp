#version 450
// Conv2d(Cin, Cout, 3, stride 1, padding 1) forward on NCHW float32 (engine/train/conv_plan.hpp):
// y[n,co,i,j] = b[co] + Σ_ci Σ_ky,kx W[co,ci,ky,kx]·x[n,ci,i+ky−1,j+kx−1] (zero outside the image), summed
// in order: at most Cin·9 + 1 terms. Workgroup g holds one n, four output channels co0 … co0+3 and 64
// consecutive pixels (g = (n·⌈Cout/4⌉ + co0/4)·⌈H·W/64⌉ + block); each invocation loads x once for its
// four sums (the last channel's weights repeated past Cout; those sums are not written).
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
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint hw = pc.h * pc.w;
    uint blocks = (hw + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
    uint cblocks = (pc.cout + 3u) / 4u;
    uint plane = g / blocks;  // n·⌈Cout/4⌉ + co block
    if (plane >= pc.n * cblocks) return;
    uint co0 = (plane % cblocks) * 4u, n = plane / cblocks;
    uint p = (g % blocks) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (p >= hw) return;
    int i = int(p / pc.w), j = int(p % pc.w);
    uint cn = min(4u, pc.cout - co0);
    uint ws = pc.cin * 9u;
    uint w1 = min(co0 + 1u, pc.cout - 1u) * ws, w2 = min(co0 + 2u, pc.cout - 1u) * ws;
    uint w3 = min(co0 + 3u, pc.cout - 1u) * ws, w0 = co0 * ws;
    vec4 acc = vec4(b[co0], b[min(co0 + 1u, pc.cout - 1u)], b[min(co0 + 2u, pc.cout - 1u)],
                    b[min(co0 + 3u, pc.cout - 1u)]);
    for (uint ci = 0u; ci < pc.cin; ++ci) {
        uint xb = (n * pc.cin + ci) * hw;
        for (int ky = 0; ky < 3; ++ky) {
            int yi = i + ky - 1;
            if (yi < 0 || yi >= int(pc.h)) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int xj = j + kx - 1;
                if (xj < 0 || xj >= int(pc.w)) continue;
                float v = x[xb + uint(yi) * pc.w + uint(xj)];
                uint k = ci * 9u + uint(ky * 3 + kx);
                acc += vec4(wt[w0 + k], wt[w1 + k], wt[w2 + k], wt[w3 + k]) * v;
            }
        }
    }
    uint ob = (n * pc.cout + co0) * hw + p;
    y[ob] = acc.x;
    if (cn > 1u) y[ob + hw] = acc.y;
    if (cn > 2u) y[ob + 2u * hw] = acc.z;
    if (cn > 3u) y[ob + 3u * hw] = acc.w;
}
