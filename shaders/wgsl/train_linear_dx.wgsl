// Training: Linear's input gradient dX[n, i] = Σₒ dY[n, o]·W[o, i], times f'(·) of the activation that
// produced that input, from its output in A (act: 0 none, A unused), train_linear_dx.comp's twin (in order
// of o). One invocation per input element.
// append: train_act_common.wgsl
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
  let e = gid.x;
  if (e >= pc.N * pc.In) {
    return;
  }
  let n = e / pc.In;
  let i = e % pc.In;
  var acc = 0.0;
  for (var o = 0u; o < pc.Out; o++) {
    acc += DY[n * pc.Out + o] * W[o * pc.In + i];
  }
  if (pc.act != 0u) {
    acc = acc * act_slope(pc.act, A[e]);
  }
  DX[e] = acc;
}
