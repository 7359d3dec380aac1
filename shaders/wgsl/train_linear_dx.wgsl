// Training: Linear's input gradient dX[n, i] = Σₒ dY[n, o]·W[o, i], times f'(·) of the activation that
// produced that input, from its output in A (act: 0 none, A unused), train_linear_dx.comp's twin: one
// invocation per block of 4 samples × 4 inputs, each sum in order of o.
// append: train_act_common.wgsl
// append: train_linear_block.wgsl
struct Push {
  N : u32,
  In : u32,
  Out : u32,
  act : u32,
}

@group(0) @binding(0) var<storage, read_write> DY : array<f32>;
@group(0) @binding(1) var<storage, read_write> W : array<f32>;
@group(0) @binding(2) var<storage, read_write> DX : array<f32>;
@group(0) @binding(3) var<storage, read_write> A : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let ib = (pc.In + 3u) / 4u;
  let e = gid.x;
  if (e >= ib * ((pc.N + 3u) / 4u)) {
    return;
  }
  let n0 = e / ib * 4u;
  let i0 = e % ib * 4u;
  var acc : array<array<f32, 4>, 4>;
  for (var o = 0u; o < pc.Out; o++) {
    // Rows and columns past the end load the last one's values, never stored.
    var dy : array<f32, 4>;
    var w : array<f32, 4>;
    for (var a = 0u; a < 4u; a++) {
      dy[a] = DY[min(n0 + a, pc.N - 1u) * pc.Out + o];
      w[a] = W[o * pc.In + min(i0 + a, pc.In - 1u)];
    }
    block_fma(&acc, dy, w);
  }
  for (var a = 0u; a < 4u; a++) {
    for (var b = 0u; b < 4u; b++) {
      let n = n0 + a;
      let i = i0 + b;
      if (n < pc.N && i < pc.In) {
        let e2 = n * pc.In + i;
        var g = acc[a][b];
        if (pc.act != 0u) {
          g = g * act_slope(pc.act, A[e2]);
        }
        DX[e2] = g;
      }
    }
  }
}
