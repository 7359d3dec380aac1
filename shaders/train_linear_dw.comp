#version 450
// Training: Linear's parameter gradients dW[o, i] = Σₙ dY[n, o]·X[n, i] and db[o] = Σₙ dY[n, o]. One
// invocation per (o, i) with i ≤ In (i = In: the bias). sgd ≠ 0: the same invocation then takes
// train_sgd.comp's step on that parameter (W or b) with its momentum buffer (MW or MB), so a layer's
// update needs no pass of its own (the passes that read W before the update run before this one).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint N; uint In; uint Out; uint sgd; float lr; float momentum; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer Xb { float X[]; };
layout(std430, binding = 2) writeonly buffer DWb { float DW[]; };
layout(std430, binding = 3) writeonly buffer DBb { float DB[]; };
layout(std430, binding = 4) buffer Wb { float W[]; };
layout(std430, binding = 5) buffer Bb { float B[]; };
layout(std430, binding = 6) buffer MWb { float MW[]; };
layout(std430, binding = 7) buffer MBb { float MB[]; };
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.Out * (pc.In + 1u)) return;
    uint o = e / (pc.In + 1u), i = e % (pc.In + 1u);
    float acc = 0.0;
    if (i == pc.In) {
        for (uint n = 0u; n < pc.N; ++n) acc += DY[n * pc.Out + o];
        DB[o] = acc;
        if (pc.sgd == 0u) return;
        float b = pc.momentum * MB[o] + acc;
        MB[o] = b;
        B[o] -= pc.lr * b;
    } else {
        for (uint n = 0u; n < pc.N; ++n) acc += DY[n * pc.Out + o] * X[n * pc.In + i];
        uint w = o * pc.In + i;
        DW[w] = acc;
        if (pc.sgd == 0u) return;
        float b = pc.momentum * MW[w] + acc;
        MW[w] = b;
        W[w] -= pc.lr * b;
    }
}
