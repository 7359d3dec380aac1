// Training: torch.optim.Adam (no weight decay, not AMSGrad) at step t, train_adam.comp's twin:
// m = β1·m + (1 − β1)·g; v = β2·v + (1 − β2)·g²;
// p −= (lr / (1 − β1ᵗ)) · m / (√v / √(1 − β2ᵗ) + eps), with 1 − β1ᵗ and 1 − β2ᵗ from BIAS
// (train_adam_bias.wgsl; 1 − β is passed as its own word, as PyTorch rounds it from double).
struct Push {
  count : u32,
  lr : f32,
  beta1 : f32,
  one_minus_beta1 : f32,
  beta2 : f32,
  one_minus_beta2 : f32,
  eps : f32,
}

@group(0) @binding(0) var<storage, read_write> P : array<f32>;
@group(0) @binding(1) var<storage, read_write> G : array<f32>;
@group(0) @binding(2) var<storage, read_write> M : array<f32>;
@group(0) @binding(3) var<storage, read_write> V : array<f32>;
@group(0) @binding(4) var<storage, read_write> BIAS : array<f32>;  // 1 − β1ᵗ, 1 − β2ᵗ
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let e = gid.x;
  if (e >= pc.count) {
    return;
  }
  let g = G[e];
  let m = pc.beta1 * M[e] + pc.one_minus_beta1 * g;
  let v = pc.beta2 * V[e] + pc.one_minus_beta2 * g * g;
  M[e] = m;
  V[e] = v;
  P[e] = P[e] - (pc.lr / BIAS[0]) * m / (sqrt(v) / sqrt(BIAS[1]) + pc.eps);
}
