// Training: a norm's input gradient over one set per workgroup from the forward's xhat and rstd,
// train_norm_bwd.comp's twin: g = dY·γ[c]; dX = rstd·(g − mean(g) − xhat·mean(g·xhat)) (rms, flag 1:
// without the − mean(g)). Flag 16 (small sets): one invocation per set, no workgroup memory, 64 sets per
// workgroup. The sums are the GLSL kernel's: every 64th member per invocation, then the same tree.
// append: train_norm_common.wgsl
// append: train_norm_set_bwd.wgsl
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
}

@group(0) @binding(0) var<storage, read_write> DY : array<f32>;
@group(0) @binding(1) var<storage, read_write> XHAT : array<f32>;
@group(0) @binding(2) var<storage, read_write> STATS : array<f32>;
@group(0) @binding(3) var<storage, read_write> GAMMA : array<f32>;
@group(0) @binding(4) var<storage, read_write> DZ : array<f32>;  // dX
@group(0) @binding(8) var<uniform> pc : Push;

var<workgroup> s_a : array<f32, 64>;
var<workgroup> s_b : array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>, @builtin(workgroup_id) wid : vec3<u32>,
        @builtin(local_invocation_index) t : u32) {
  if ((pc.flags & 16u) != 0u) {  // one invocation per set
    let s = gid.x;
    if (s < pc.sets) {
      apply_set(s, 0u, 1u, part_sums(s, 0u, 1u));
    }
    return;
  }
  let s = wid.x;  // one workgroup per set
  let p = part_sums(s, t, 64u);
  s_a[t] = p.x;
  s_b[t] = p.y;
  workgroupBarrier();  // all partial sums stored before the first level reads them
  for (var k = 32u; k > 0u; k = k >> 1u) {
    if (t < k) {
      s_a[t] += s_a[t + k];
      s_b[t] += s_b[t + k];
    }
    workgroupBarrier();  // this level's sums written before the next level reads them
  }
  apply_set(s, t, 64u, vec2<f32>(s_a[0], s_b[0]));
}
