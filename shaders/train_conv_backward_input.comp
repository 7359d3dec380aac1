#version 450
// Conv2d 3×3 (padding 1) backward to its input on NCHW float32 (engine/train/conv_plan.hpp): one invocation
// per input element, dx[n,ci,i,j] = Σ_co Σ_ky,kx W[co,ci,ky,kx]·dy[n,co,i−ky+1,j−kx+1] (zero outside the
// image), summed in order: at most Cout·9 terms. Writes dx (no accumulation).
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
    uint hw = pc.h * pc.w;
    if (id >= pc.n * pc.cin * hw) return;
    int j = int(id % pc.w), i = int((id / pc.w) % pc.h);
    uint ci = (id / hw) % pc.cin, n = id / (hw * pc.cin);
    float acc = 0.0;
    for (uint co = 0u; co < pc.cout; ++co) {
        uint db = (n * pc.cout + co) * hw, wb = (co * pc.cin + ci) * 9u;
        for (int ky = 0; ky < 3; ++ky) {
            int yo = i - ky + 1;
            if (yo < 0 || yo >= int(pc.h)) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int xo = j - kx + 1;
                if (xo < 0 || xo >= int(pc.w)) continue;
                acc += wt[wb + uint(ky * 3 + kx)] * dy[db + uint(yo) * pc.w + uint(xo)];
            }
        }
    }
    dx[id] = acc;
}
