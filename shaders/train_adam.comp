#version 450
// Training: torch.optim.Adam (no weight decay, not AMSGrad) at step t = STEP + 1:
// m = β1·m + (1 − β1)·g; v = β2·v + (1 − β2)·g²;
// p −= (lr / (1 − β1ᵗ)) · m / (√v / √(1 − β2ᵗ) + eps).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; float lr; float beta1; float beta2; float eps; } pc;
layout(std430, binding = 0) buffer Pb { float P[]; };
layout(std430, binding = 1) readonly buffer Gb { float G[]; };
layout(std430, binding = 2) buffer Mb { float M[]; };
layout(std430, binding = 3) buffer Vb { float V[]; };
layout(std430, binding = 4) readonly buffer Step { uint STEP; };
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    float t = float(STEP + 1u);
    float g = G[e];
    float m = pc.beta1 * M[e] + (1.0 - pc.beta1) * g;
    float v = pc.beta2 * V[e] + (1.0 - pc.beta2) * g * g;
    M[e] = m;
    V[e] = v;
    float bc1 = 1.0 - pow(pc.beta1, t);
    float bc2 = 1.0 - pow(pc.beta2, t);
    P[e] -= (pc.lr / bc1) * m / (sqrt(v) / sqrt(bc2) + pc.eps);
}
