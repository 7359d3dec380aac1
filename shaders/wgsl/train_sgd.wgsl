// Training: torch.optim.SGD with momentum (dampening 0, no weight decay, not Nesterov), train_sgd.comp's
// twin: buf = momentum·buf + g (buf starts at 0, so the first step's buf is g, as PyTorch's), p −= lr·buf.
struct Push {
  count : u32,
  lr : f32,
  momentum : f32,
}

@group(0) @binding(0) var<storage, read_write> P : array<f32>;
@group(0) @binding(1) var<storage, read_write> G : array<f32>;
@group(0) @binding(2) var<storage, read_write> M : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let e = gid.x;
  if (e >= pc.count) {
    return;
  }
  let b = pc.momentum * M[e] + G[e];
  M[e] = b;
  P[e] = P[e] - pc.lr * b;
}
