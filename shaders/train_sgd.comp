#version 450
// Training: torch.optim.SGD with momentum (dampening 0, no weight decay, not Nesterov):
// buf = momentum·buf + g (buf starts at 0, so the first step's buf is g, as PyTorch's), p −= lr·buf.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; float lr; float momentum; } pc;
layout(std430, binding = 0) buffer Pb { float P[]; };
layout(std430, binding = 1) readonly buffer Gb { float G[]; };
layout(std430, binding = 2) buffer Mb { float M[]; };
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    float b = pc.momentum * M[e] + G[e];
    M[e] = b;
    P[e] -= pc.lr * b;
}
