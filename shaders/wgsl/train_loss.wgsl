// Training: softmax cross-entropy and accuracy of the logits (train_loss_body.wgsl), one workgroup,
// train_loss.comp's twin.
// append: train_loss_body.wgsl
struct Push {
  N : u32,
  K : u32,
  eval : u32,
}

@group(0) @binding(0) var<storage, read_write> LOGITS : array<f32>;
@group(0) @binding(1) var<storage, read_write> LABELS : array<u32>;
@group(0) @binding(2) var<storage, read_write> DLOGITS : array<f32>;
@group(0) @binding(3) var<storage, read_write> LOG : array<f32>;
@group(0) @binding(4) var<storage, read_write> STEP : array<u32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t : u32) {
  loss_main(t);
}
