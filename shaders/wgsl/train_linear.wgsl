// Training: Linear's forward Y[n, o] = f(b[o] + Σᵢ X[n, i]·W[o, i]) (W is Out × In, as PyTorch's) with the
// activation f that follows it fused (act: 0 none; with one, Z keeps the value before it),
// train_linear.comp's twin: the sum in order, then the bias. One invocation per output element.
// append: train_act_common.wgsl
struct Push {
  N : u32,
  In : u32,
  Out : u32,
  act : u32,
}

@group(0) @binding(0) var<storage, read_write> X : array<f32>;
@group(0) @binding(1) var<storage, read_write> W : array<f32>;
@group(0) @binding(2) var<storage, read_write> B : array<f32>;
@group(0) @binding(3) var<storage, read_write> Y : array<f32>;
@group(0) @binding(4) var<storage, read_write> Z : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let e = gid.x;
  if (e >= pc.N * pc.Out) {
    return;
  }
  let n = e / pc.Out;
  let o = e % pc.Out;
  var acc = 0.0;
  for (var i = 0u; i < pc.In; i++) {
    acc += X[n * pc.In + i] * W[o * pc.In + i];
  }
  let z = acc + B[o];
  if (pc.act != 0u) {
    Z[e] = z;
  }
  Y[e] = act_apply(pc.act, z);
}
