// Training: a norm's parameter gradients, train_norm_pgrad.comp's twin, one invocation per channel c:
// dγ[c] = Σ dY·xhat and dβ[c] = Σ dY over the channel's rows × inner elements (r·row_stride +
// c·channel_stride + i), in that order. sgd ≠ 0: the same invocation then takes train_sgd's step on γ[c]
// (and β[c]) with their momentum buffers (train_norm_param_step.wgsl).
// append: train_norm_param_step.wgsl
// append: train_norm_pgrad_rows.wgsl
struct Push {
  channels : u32,
  rows : u32,
  row_stride : u32,
  channel_stride : u32,
  inner : u32,
  has_bias : u32,
  sgd : u32,
  lr : f32,
  momentum : f32,
}

@group(0) @binding(0) var<storage, read_write> DY : array<f32>;
@group(0) @binding(1) var<storage, read_write> XHAT : array<f32>;
@group(0) @binding(2) var<storage, read_write> DGAMMA : array<f32>;
@group(0) @binding(3) var<storage, read_write> DBETA : array<f32>;
@group(0) @binding(4) var<storage, read_write> GAMMA : array<f32>;
@group(0) @binding(5) var<storage, read_write> BETA : array<f32>;
@group(0) @binding(6) var<storage, read_write> MGAMMA : array<f32>;
@group(0) @binding(7) var<storage, read_write> MBETA : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let c = gid.x;
  if (c >= pc.channels) {
    return;
  }
  norm_pgrad_channel(c);
}
