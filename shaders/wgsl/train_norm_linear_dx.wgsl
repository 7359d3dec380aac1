// Training: a row norm's input gradient (layer, rms, group) and the gradient through the Linear before it in
// one pass, train_norm_linear_dx.comp's twin: DZ = the norm's dX from DY (train_norm_bwd.wgsl's serial sums),
// then DX[n, i] = Σₒ DZ[n, o]·W[o, i] · f'(A[n, i]) (train_linear_dx.wgsl's blocks). One invocation per 4
// samples.
// append: train_norm_common.wgsl
// append: train_norm_set_bwd.wgsl
// append: train_act_common.wgsl
// append: train_linear_block.wgsl
// append: train_linear_dx_rows.wgsl
struct Push {
  sets : u32,
  members : u32,
  set_inner : u32,
  set_outer_stride : u32,
  set_inner_stride : u32,
  member_inner : u32,
  member_outer_stride : u32,
  member_inner_stride : u32,
  channels : u32,
  channel_stride : u32,
  flags : u32,
  N : u32,
  In : u32,
  Out : u32,
  act : u32,
}

@group(0) @binding(0) var<storage, read_write> DY : array<f32>;
@group(0) @binding(1) var<storage, read_write> XHAT : array<f32>;
@group(0) @binding(2) var<storage, read_write> STATS : array<f32>;
@group(0) @binding(3) var<storage, read_write> GAMMA : array<f32>;
@group(0) @binding(4) var<storage, read_write> DZ : array<f32>;
@group(0) @binding(5) var<storage, read_write> W : array<f32>;
@group(0) @binding(6) var<storage, read_write> DX : array<f32>;
@group(0) @binding(7) var<storage, read_write> A : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

fn dz_at(e : u32) -> f32 { return DZ[e]; }
fn a_at(e : u32) -> f32 { return A[e]; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let n0 = gid.x * 4u;
  if (n0 >= pc.N) {
    return;
  }
  let per_row = pc.sets / pc.N;
  let last = min(n0 + 4u, pc.N);
  for (var s = n0 * per_row; s < last * per_row; s++) {
    apply_set(s, 0u, 1u, part_sums(s, 0u, 1u));
  }
  for (var i0 = 0u; i0 < pc.In; i0 += 4u) {
    linear_dx_block(n0, i0);
  }
}
