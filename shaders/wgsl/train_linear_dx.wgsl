// Training: Linear's input gradient dX[n, i] = Σₒ dY[n, o]·W[o, i], times f'(·) of the activation that
// produced that input, from its output in A (act: 0 none, A unused), train_linear_dx.comp's twin: one
// invocation per block of 4 samples × 4 inputs, each sum in order of o.
// append: train_act_common.wgsl
// append: train_linear_block.wgsl
// append: train_linear_dx_rows.wgsl
struct Push {
  N : u32,
  In : u32,
  Out : u32,
  act : u32,
}

@group(0) @binding(0) var<storage, read_write> DZ : array<f32>;  // dY
@group(0) @binding(1) var<storage, read_write> W : array<f32>;
@group(0) @binding(2) var<storage, read_write> DX : array<f32>;
@group(0) @binding(3) var<storage, read_write> A : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

fn dz_at(e : u32) -> f32 { return DZ[e]; }
fn a_at(e : u32) -> f32 { return A[e]; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let ib = (pc.In + 3u) / 4u;
  let e = gid.x;
  if (e >= ib * ((pc.N + 3u) / 4u)) {
    return;
  }
  linear_dx_block(e / ib * 4u, e % ib * 4u);
}
