#version 450
// Conv2d(Cin, Cout, 3, stride 1, padding 1) forward on NCHW float32 (engine/train/conv_plan.hpp): one
// invocation per output element, y[n,co,i,j] = b[co] + Σ_ci Σ_ky,kx W[co,ci,ky,kx]·x[n,ci,i+ky−1,j+kx−1]
// (zero outside the image), summed in order: at most Cin·9 + 1 terms.
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
    uint hw = pc.h * pc.w;
    if (id >= pc.n * pc.cout * hw) return;
    int j = int(id % pc.w), i = int((id / pc.w) % pc.h);
    uint co = (id / hw) % pc.cout, n = id / (hw * pc.cout);
    float acc = b[co];
    for (uint ci = 0u; ci < pc.cin; ++ci) {
        uint xb = (n * pc.cin + ci) * hw, wb = (co * pc.cin + ci) * 9u;
        for (int ky = 0; ky < 3; ++ky) {
            int yi = i + ky - 1;
            if (yi < 0 || yi >= int(pc.h)) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int xj = j + kx - 1;
                if (xj < 0 || xj >= int(pc.w)) continue;
                acc += wt[wb + uint(ky * 3 + kx)] * x[xb + uint(yi) * pc.w + uint(xj)];
            }
        }
    }
    y[id] = acc;
}
