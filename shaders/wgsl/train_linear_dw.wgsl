// Training: Linear's parameter gradients dW[o, i] = Σₙ dY[n, o]·X[n, i] and db[o] = Σₙ dY[n, o],
// train_linear_dw.comp's twin (sums in order of n): one invocation per block of 4 outputs × 4 columns of
// (W | b), column In the bias (whose X is 1). sgd ≠ 0: the same invocation then takes train_sgd's step on
// each of its parameters (W or b) with its momentum buffer (MW or MB).
// append: train_linear_block.wgsl
// append: train_linear_dw_rows.wgsl
struct Push {
  N : u32,
  In : u32,
  Out : u32,
  sgd : u32,
  lr : f32,
  momentum : f32,
}

@group(0) @binding(0) var<storage, read_write> DY : array<f32>;
@group(0) @binding(1) var<storage, read_write> X : array<f32>;
@group(0) @binding(2) var<storage, read_write> DW : array<f32>;
@group(0) @binding(3) var<storage, read_write> DB : array<f32>;
@group(0) @binding(4) var<storage, read_write> W : array<f32>;
@group(0) @binding(5) var<storage, read_write> B : array<f32>;
@group(0) @binding(6) var<storage, read_write> MW : array<f32>;
@group(0) @binding(7) var<storage, read_write> MB : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

fn dy_at(e : u32) -> f32 { return DY[e]; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let cb = (pc.In + 4u) / 4u;
  let e = gid.x;
  if (e >= cb * ((pc.Out + 3u) / 4u)) {
    return;
  }
  linear_dw_block(e / cb * 4u, e % cb * 4u);
}
