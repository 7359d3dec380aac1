// Training: a norm's ∂γ, ∂β and the Linear before it's ∂W, ∂b in one pass, one workgroup of 64, each with SGD's
// step where sgd, train_norm_pgrad_dw.comp's twin: invocation t takes the channels t, t + 64, …, then the
// Linear's blocks t, t + 64, … (no barrier: neither reads what the other writes). Sixteen storage buffers:
// train_norm_pgrad's 8 at bindings 0–7, train_linear_dw's (its dY: DZ) at 9–16, past the parameter block's 8.
// append: train_linear_block.wgsl
// append: train_norm_param_step.wgsl
// append: train_norm_pgrad_rows.wgsl
// append: train_linear_dw_rows.wgsl
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
  N : u32,
  In : u32,
  Out : u32,
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
@group(0) @binding(9) var<storage, read_write> DZ : array<f32>;
@group(0) @binding(10) var<storage, read_write> X : array<f32>;
@group(0) @binding(11) var<storage, read_write> DW : array<f32>;
@group(0) @binding(12) var<storage, read_write> DB : array<f32>;
@group(0) @binding(13) var<storage, read_write> W : array<f32>;
@group(0) @binding(14) var<storage, read_write> B : array<f32>;
@group(0) @binding(15) var<storage, read_write> MW : array<f32>;
@group(0) @binding(16) var<storage, read_write> MB : array<f32>;

fn dy_at(e : u32) -> f32 { return DZ[e]; }

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t : u32) {
  for (var c = t; c < pc.channels; c += 64u) {
    norm_pgrad_channel(c);
  }
  let cb = (pc.In + 4u) / 4u;
  for (var e = t; e < cb * ((pc.Out + 3u) / 4u); e += 64u) {
    linear_dw_block(e / cb * 4u, e % cb * 4u);
  }
}
