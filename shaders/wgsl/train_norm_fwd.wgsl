// Training: a norm's forward over one set per workgroup (train_norm_layout.hpp), train_norm_fwd.comp's twin:
// mean and biased variance in two passes (rms: mean 0, mean of squares), rstd = 1/√(var + eps),
// xhat = (x − mean)·rstd, Y = xhat·γ[c] (+ β[c]). Flags (train_plan.hpp): 2 normalise with the running
// statistics instead (BatchNorm in eval); 4 update them (running = (1 − momentum)·running + momentum·stat,
// the variance unbiased: ·M/(M − 1)). STATS[2s] = mean, STATS[2s + 1] = rstd. Flag 16 (small sets): one
// invocation per set, looping over its members (no workgroup memory, no barriers), 64 sets per workgroup.
// The sums are the GLSL kernel's: every 64th member per invocation, then the same tree. Flags >> 5: the
// activation that follows the norm, fused (train_act_common.wgsl's act, 0 none): Y = f(xhat·γ[c] + β[c]).
// append: train_norm_common.wgsl
// append: train_act_common.wgsl
// append: train_norm_set.wgsl
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
  eps : f32,
  momentum : f32,
}

@group(0) @binding(0) var<storage, read_write> Z : array<f32>;  // the input
@group(0) @binding(1) var<storage, read_write> Y : array<f32>;
@group(0) @binding(2) var<storage, read_write> XHAT : array<f32>;
@group(0) @binding(3) var<storage, read_write> STATS : array<f32>;
@group(0) @binding(4) var<storage, read_write> GAMMA : array<f32>;
@group(0) @binding(5) var<storage, read_write> BETA : array<f32>;
@group(0) @binding(6) var<storage, read_write> RMEAN : array<f32>;
@group(0) @binding(7) var<storage, read_write> RVAR : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

var<workgroup> s_sum : array<f32, 64>;

fn is_rms() -> bool {
  return (pc.flags & 1u) != 0u;
}

// The workgroup's sum of v (the GLSL kernel's set_sum tree); uniform control flow only.
fn set_sum(t : u32, v : f32) -> f32 {
  s_sum[t] = v;
  workgroupBarrier();  // all values stored before the first level reads them
  for (var k = 32u; k > 0u; k = k >> 1u) {
    if (t < k) {
      s_sum[t] += s_sum[t + k];
    }
    workgroupBarrier();  // this level's sums written before the next level reads them
  }
  let r = s_sum[0];
  workgroupBarrier();  // everyone has read s_sum[0] before the next sum overwrites it
  return r;
}

// Set s's statistics from its mean and variance (or the running ones), then its xhat and Y.
fn finish_set(s : u32, t : u32, stride : u32, batch_mean : f32, batch_var : f32) {
  let M = f32(pc.members);
  var mean = batch_mean;
  var v = batch_var;
  if ((pc.flags & 2u) != 0u) {
    mean = RMEAN[s];
    v = RVAR[s];
  } else if ((pc.flags & 4u) != 0u && t == 0u) {
    RMEAN[s] = (1.0 - pc.momentum) * RMEAN[s] + pc.momentum * mean;
    RVAR[s] = (1.0 - pc.momentum) * RVAR[s] + pc.momentum * v * M / max(M - 1.0, 1.0);
  }
  let rstd = inverseSqrt(v + pc.eps);
  if (t == 0u) {
    STATS[2u * s] = mean;
    STATS[2u * s + 1u] = rstd;
  }
  norm_write(s, t, stride, mean, rstd);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>, @builtin(workgroup_id) wid : vec3<u32>,
        @builtin(local_invocation_index) t : u32) {
  let M = f32(pc.members);
  if ((pc.flags & 16u) != 0u) {  // one invocation per set
    let s = gid.x;
    if (s < pc.sets) {
      var mean = 0.0;
      if (!is_rms()) {
        mean = part_sum(s, 0u, 1u) / M;
      }
      finish_set(s, 0u, 1u, mean, part_squares(s, 0u, 1u, mean) / M);
    }
    return;
  }
  let s = wid.x;  // one workgroup per set
  var mean = 0.0;
  if (!is_rms()) {
    mean = set_sum(t, part_sum(s, t, 64u)) / M;
  }
  finish_set(s, t, 64u, mean, set_sum(t, part_squares(s, t, 64u, mean)) / M);
}
