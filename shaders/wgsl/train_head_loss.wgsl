// Training (the step only): the head's Linear and the loss in one pass, one workgroup, train_head_loss.comp's
// twin. Invocation t first computes the logits of its samples n = t, t + 64, … (train_head_logits.wgsl), then
// reads them back for train_loss_body.wgsl's softmax cross-entropy, dlogits and step counter (the samples it
// reads are the ones it wrote).
// append: train_loss_body.wgsl
// append: train_head_logits.wgsl
struct Push {
  N : u32,
  K : u32,
  eval : u32,
  In : u32,
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

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t : u32) {
  head_logits(t);
  loss_main(t);
}
