// Training: Adam's bias corrections for this step, train_adam_bias.comp's twin: 1 − βᵗ = (1 − β) + β·(1 − βᵗ⁻¹)
// from the previous step's (0 before the first). Runs once per step, before the train_adam passes.
// BIAS = {1 − β1ᵗ, 1 − β2ᵗ}.
struct Push {
  beta1 : f32,
  one_minus_beta1 : f32,
  beta2 : f32,
  one_minus_beta2 : f32,
}

@group(0) @binding(0) var<storage, read_write> BIAS : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(1)
fn main() {
  BIAS[0] = pc.one_minus_beta1 + pc.beta1 * BIAS[0];
  BIAS[1] = pc.one_minus_beta2 + pc.beta2 * BIAS[1];
}
