// Training: Linear's parameter gradients dW[o, i] = Σₙ dY[n, o]·X[n, i] and db[o] = Σₙ dY[n, o],
// train_linear_dw.comp's twin (sums in order of n). One invocation per (o, i) with i ≤ In (i = In: the
// bias). sgd ≠ 0: the same invocation then takes train_sgd's step on that parameter (W or b) with its
// momentum buffer (MW or MB).
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

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let e = gid.x;
  if (e >= pc.Out * (pc.In + 1u)) {
    return;
  }
  let o = e / (pc.In + 1u);
  let i = e % (pc.In + 1u);
  var acc = 0.0;
  if (i == pc.In) {
    for (var n = 0u; n < pc.N; n++) {
      acc += DY[n * pc.Out + o];
    }
    DB[o] = acc;
    if (pc.sgd != 0u) {
      let b = pc.momentum * MB[o] + acc;
      MB[o] = b;
      B[o] = B[o] - pc.lr * b;
    }
  } else {
    for (var n = 0u; n < pc.N; n++) {
      acc += DY[n * pc.Out + o] * X[n * pc.In + i];
    }
    let w = o * pc.In + i;
    DW[w] = acc;
    if (pc.sgd != 0u) {
      let b = pc.momentum * MW[w] + acc;
      MW[w] = b;
      W[w] = W[w] - pc.lr * b;
    }
  }
}
