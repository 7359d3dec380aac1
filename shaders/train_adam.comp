#version 450
// Training: torch.optim.Adam (no weight decay, not AMSGrad) at step t, as PyTorch's update:
// m = β1·m + (1 − β1)·g; v = β2·v + (1 − β2)·g²;
// p −= (lr / (1 − β1ᵗ)) · m / (√v / √(1 − β2ᵗ) + eps), with 1 − β1ᵗ and 1 − β2ᵗ from BIAS
// (train_adam_bias.comp; 1 − β is passed as its own word, as PyTorch rounds it from double).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint count; float lr; float beta1; float one_minus_beta1; float beta2; float one_minus_beta2; float eps;
} pc;
layout(std430, binding = 0) buffer Pb { float P[]; };
layout(std430, binding = 1) readonly buffer Gb { float G[]; };
layout(std430, binding = 2) buffer Mb { float M[]; };
layout(std430, binding = 3) buffer Vb { float V[]; };
layout(std430, binding = 4) readonly buffer Bias { float BIAS[]; };  // 1 − β1ᵗ, 1 − β2ᵗ
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    float g = G[e];
    float m = pc.beta1 * M[e] + pc.one_minus_beta1 * g;
    float v = pc.beta2 * V[e] + pc.one_minus_beta2 * g * g;
    M[e] = m;
    V[e] = v;
    P[e] -= (pc.lr / BIAS[0]) * m / (sqrt(v) / sqrt(BIAS[1]) + pc.eps);
}
