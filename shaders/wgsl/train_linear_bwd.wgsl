// Training: a small Linear's backward in one pass, one workgroup of 64, train_linear_bwd.comp's twin: dX (times
// f'(X) of act, X the activation's output), a barrier, then dW, db and SGD's step (train_linear_backward.wgsl).
// Nine storage buffers: the ninth (MB) at binding 9, past the parameter block's 8 (the runner's order).
// append: train_act_common.wgsl
// append: train_linear_block.wgsl
// append: train_linear_dx_rows.wgsl
// append: train_linear_dw_rows.wgsl
// append: train_linear_backward.wgsl
struct Push {
  N : u32,
  In : u32,
  Out : u32,
  act : u32,
  sgd : u32,
  lr : f32,
  momentum : f32,
}

@group(0) @binding(0) var<storage, read_write> DY : array<f32>;
@group(0) @binding(1) var<storage, read_write> X : array<f32>;
@group(0) @binding(2) var<storage, read_write> W : array<f32>;
@group(0) @binding(3) var<storage, read_write> B : array<f32>;
@group(0) @binding(4) var<storage, read_write> DX : array<f32>;
@group(0) @binding(5) var<storage, read_write> DW : array<f32>;
@group(0) @binding(6) var<storage, read_write> DB : array<f32>;
@group(0) @binding(7) var<storage, read_write> MW : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;
@group(0) @binding(9) var<storage, read_write> MB : array<f32>;

fn dz_at(e : u32) -> f32 { return DY[e]; }
fn dy_at(e : u32) -> f32 { return DY[e]; }
fn a_at(e : u32) -> f32 { return X[e]; }

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t : u32) {
  linear_backward(t);
}
