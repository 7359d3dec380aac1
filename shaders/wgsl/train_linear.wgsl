// Training: Linear's forward Y[n, o] = f(b[o] + Σᵢ X[n, i]·W[o, i]) (W is Out × In, as PyTorch's) with the
// activation f that follows it fused (act: 0 none; with one, Z keeps the value before it),
// train_linear.comp's twin: one invocation per block of 4 samples × 4 outputs, each sum in order of i,
// then the bias.
// append: train_act_common.wgsl
// append: train_linear_block.wgsl
// append: train_linear_rows.wgsl
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
  let ob = (pc.Out + 3u) / 4u;
  let e = gid.x;
  if (e >= ob * ((pc.N + 3u) / 4u)) {
    return;
  }
  let n0 = e / ob * 4u;
  let o0 = e % ob * 4u;
  let acc = linear_block_sums(n0, o0);
  for (var a = 0u; a < 4u; a++) {
    for (var b = 0u; b < 4u; b++) {
      let n = n0 + a;
      let o = o0 + b;
      if (n < pc.N && o < pc.Out) {
        let z = acc[a][b] + B[o];
        if (pc.act != 0u) {
          Z[n * pc.Out + o] = z;
        }
        Y[n * pc.Out + o] = act_apply(pc.act, z);
      }
    }
  }
}
