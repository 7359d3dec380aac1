#version 450
// Training: Adam's bias corrections for this step, 1 − βᵗ = (1 − β) + β·(1 − βᵗ⁻¹) from the previous
// step's (0 before the first): no cancellation, unlike 1 − pow(β, t) in float32. Runs once per step,
// before the train_adam passes. BIAS = {1 − β1ᵗ, 1 − β2ᵗ}.
layout(local_size_x = 1) in;
layout(push_constant) uniform Push { float beta1; float one_minus_beta1; float beta2; float one_minus_beta2; } pc;
layout(std430, binding = 0) buffer Bias { float BIAS[]; };
void main() {
    BIAS[0] = pc.one_minus_beta1 + pc.beta1 * BIAS[0];
    BIAS[1] = pc.one_minus_beta2 + pc.beta2 * BIAS[1];
}
