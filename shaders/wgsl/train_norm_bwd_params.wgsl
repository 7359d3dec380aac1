// Training: BatchNorm's backward in one pass, train_norm_bwd_params.comp's twin: one invocation per set, each
// set one channel (64 a workgroup): dX as train_norm_bwd.wgsl, and in the same loop over the members (in
// train_norm_pgrad.wgsl's order) dγ[s] = Σ dY·xhat and dβ[s] = Σ dY; sgd ≠ 0: after dX has read γ[s],
// train_sgd's step on γ[s] (and β[s]) with their momentum buffers. Ten storage buffers: the ninth and tenth
// (mγ, mβ) at bindings 9 and 10, past the parameter block's 8 (the runner's order).
// append: train_norm_common.wgsl
// append: train_norm_set_bwd.wgsl
// append: train_norm_param_step.wgsl
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
  sgd : u32,
  lr : f32,
  momentum : f32,
}

@group(0) @binding(0) var<storage, read_write> DY : array<f32>;
@group(0) @binding(1) var<storage, read_write> XHAT : array<f32>;
@group(0) @binding(2) var<storage, read_write> STATS : array<f32>;
@group(0) @binding(3) var<storage, read_write> GAMMA : array<f32>;
@group(0) @binding(4) var<storage, read_write> DZ : array<f32>;  // dX
@group(0) @binding(5) var<storage, read_write> DGAMMA : array<f32>;
@group(0) @binding(6) var<storage, read_write> DBETA : array<f32>;
@group(0) @binding(7) var<storage, read_write> BETA : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;
@group(0) @binding(9) var<storage, read_write> MGAMMA : array<f32>;
@group(0) @binding(10) var<storage, read_write> MBETA : array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let s = gid.x;
  if (s >= pc.sets) {
    return;
  }
  var sg = 0.0;
  var sgx = 0.0;
  var dg = 0.0;
  var db = 0.0;
  for (var m = 0u; m < pc.members; m++) {
    let a = norm_address(s, m);
    let g = DY[a] * GAMMA[s];
    sg += g;
    sgx += g * XHAT[a];
    dg += DY[a] * XHAT[a];
    db += DY[a];
  }
  apply_set(s, 0u, 1u, vec2<f32>(sg, sgx));
  norm_param_step(s, dg, db, (pc.flags & 8u) != 0u, pc.sgd != 0u, pc.lr, pc.momentum);
}
