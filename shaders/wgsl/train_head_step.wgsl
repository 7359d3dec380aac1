// Training (the step only): the head's Linear, the loss and the head's backward in one pass, one workgroup,
// train_head_step.comp's twin: the logits and the loss (train_head_loss.wgsl), a barrier, dX[n, i] =
// Σₖ DY[n, k]·W[k, i] in order of k times f'(X[n, i]) of pc.act (train_linear_dx.wgsl's blocks), a barrier (dX
// has read W), then dW, db in order of n and, with pc.sgd, SGD's step (train_linear_dw.wgsl's blocks). DY is
// DLOGITS, A is X (dz_at, dy_at, a_at). Thirteen storage buffers: the ninth to the thirteenth at bindings 9–13,
// past the parameter block's 8 (the runner's order).
// append: train_loss_body.wgsl
// append: train_head_logits.wgsl
// append: train_act_common.wgsl
// append: train_linear_block.wgsl
// append: train_linear_dx_rows.wgsl
// append: train_linear_dw_rows.wgsl
// append: train_linear_backward.wgsl
struct Push {
  N : u32,
  K : u32,
  eval : u32,
  In : u32,
  Out : u32,
  act : u32,
  sgd : u32,
  lr : f32,
  momentum : f32,
}

@group(0) @binding(0) var<storage, read_write> X : array<f32>;
@group(0) @binding(1) var<storage, read_write> W : array<f32>;
@group(0) @binding(2) var<storage, read_write> B : array<f32>;
@group(0) @binding(3) var<storage, read_write> LOGITS : array<f32>;
@group(0) @binding(4) var<storage, read_write> LABELS : array<u32>;
@group(0) @binding(5) var<storage, read_write> DLOGITS : array<f32>;
@group(0) @binding(6) var<storage, read_write> LOG : array<f32>;
@group(0) @binding(7) var<storage, read_write> STEP : array<u32>;
@group(0) @binding(8) var<uniform> pc : Push;
@group(0) @binding(9) var<storage, read_write> DX : array<f32>;
@group(0) @binding(10) var<storage, read_write> DW : array<f32>;
@group(0) @binding(11) var<storage, read_write> DB : array<f32>;
@group(0) @binding(12) var<storage, read_write> MW : array<f32>;
@group(0) @binding(13) var<storage, read_write> MB : array<f32>;

fn dz_at(e : u32) -> f32 { return DLOGITS[e]; }
fn dy_at(e : u32) -> f32 { return DLOGITS[e]; }
fn a_at(e : u32) -> f32 { return X[e]; }

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t : u32) {
  head_logits(t);
  loss_main(t);
  storageBarrier();  // every dlogits (DY) written before the head's backward reads them
  linear_backward(t);
}
