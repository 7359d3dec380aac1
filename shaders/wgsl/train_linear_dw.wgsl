// Training: Linear's parameter gradients dW[o, i] = Σₙ dY[n, o]·X[n, i] and db[o] = Σₙ dY[n, o],
// train_linear_dw.comp's twin (sums in order of n): one invocation per block of 4 outputs × 4 columns of
// (W | b), column In the bias (whose X is 1). sgd ≠ 0: the same invocation then takes train_sgd's step on
// each of its parameters (W or b) with its momentum buffer (MW or MB).
// append: train_linear_block.wgsl
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

// One parameter's gradient g and, with sgd, its step: momentum m ← μ·m + g, p ← p − lr·m.
fn store(o : u32, i : u32, g : f32) {
  if (i == pc.In) {
    DB[o] = g;
    if (pc.sgd != 0u) {
      let m = pc.momentum * MB[o] + g;
      MB[o] = m;
      B[o] = B[o] - pc.lr * m;
    }
  } else {
    let w = o * pc.In + i;
    DW[w] = g;
    if (pc.sgd != 0u) {
      let m = pc.momentum * MW[w] + g;
      MW[w] = m;
      W[w] = W[w] - pc.lr * m;
    }
  }
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let cb = (pc.In + 4u) / 4u;
  let e = gid.x;
  if (e >= cb * ((pc.Out + 3u) / 4u)) {
    return;
  }
  let o0 = e / cb * 4u;
  let i0 = e % cb * 4u;
  var acc : array<array<f32, 4>, 4>;
  for (var n = 0u; n < pc.N; n++) {
    // Rows and columns past the end load the last one's values, never stored.
    var dy : array<f32, 4>;
    var x : array<f32, 4>;
    for (var a = 0u; a < 4u; a++) {
      dy[a] = DY[n * pc.Out + min(o0 + a, pc.Out - 1u)];
      x[a] = select(1.0, X[n * pc.In + min(i0 + a, pc.In - 1u)], i0 + a < pc.In);
    }
    block_fma(&acc, dy, x);
  }
  for (var a = 0u; a < 4u; a++) {
    for (var b = 0u; b < 4u; b++) {
      if (o0 + a < pc.Out && i0 + b <= pc.In) {
        store(o0 + a, i0 + b, acc[a][b]);
      }
    }
  }
}
