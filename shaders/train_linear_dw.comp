#version 450
// Training: Linear's parameter gradients dW[o, i] = Σₙ dY[n, o]·X[n, i] and db[o] = Σₙ dY[n, o].
// One invocation per (o, i) with i ≤ In (i = In: the bias).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint N; uint In; uint Out; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer Xb { float X[]; };
layout(std430, binding = 2) writeonly buffer DWb { float DW[]; };
layout(std430, binding = 3) writeonly buffer DBb { float DB[]; };
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.Out * (pc.In + 1u)) return;
    uint o = e / (pc.In + 1u), i = e % (pc.In + 1u);
    float acc = 0.0;
    if (i == pc.In) {
        for (uint n = 0u; n < pc.N; ++n) acc += DY[n * pc.Out + o];
        DB[o] = acc;
    } else {
        for (uint n = 0u; n < pc.N; ++n) acc += DY[n * pc.Out + o] * X[n * pc.In + i];
        DW[o * pc.In + i] = acc;
    }
}
