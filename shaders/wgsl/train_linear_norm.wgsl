// Training: a Linear followed by a row norm (layer, rms, group) and its activation in one pass,
// train_linear_norm.comp's twin: Z = X·Wᵀ + b (the norm's input, kept), each set's mean and biased variance
// (rms: mean 0), rstd = 1/√(var + eps), XHAT = (z − mean)·rstd, Y = f(xhat·γ[c] (+ β[c])), STATS[2s] = mean,
// STATS[2s + 1] = rstd. One invocation per 4 samples: train_linear.wgsl's blocks, train_norm_fwd.wgsl's serial
// sums. Nine storage buffers: the ninth (β) at binding 9, past the parameter block's 8 (the runner's order).
// append: train_norm_common.wgsl
// append: train_act_common.wgsl
// append: train_linear_block.wgsl
// append: train_linear_rows.wgsl
// append: train_norm_set.wgsl
struct Push {
  N : u32,
  In : u32,
  Out : u32,
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
}

@group(0) @binding(0) var<storage, read_write> X : array<f32>;
@group(0) @binding(1) var<storage, read_write> W : array<f32>;
@group(0) @binding(2) var<storage, read_write> B : array<f32>;
@group(0) @binding(3) var<storage, read_write> Z : array<f32>;
@group(0) @binding(4) var<storage, read_write> Y : array<f32>;
@group(0) @binding(5) var<storage, read_write> XHAT : array<f32>;
@group(0) @binding(6) var<storage, read_write> STATS : array<f32>;
@group(0) @binding(7) var<storage, read_write> GAMMA : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;
@group(0) @binding(9) var<storage, read_write> BETA : array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let n0 = gid.x * 4u;
  if (n0 >= pc.N) {
    return;
  }
  for (var o0 = 0u; o0 < pc.Out; o0 += 4u) {
    let acc = linear_block_sums(n0, o0);
    for (var a = 0u; a < 4u; a++) {
      for (var b = 0u; b < 4u; b++) {
        let n = n0 + a;
        let o = o0 + b;
        if (n < pc.N && o < pc.Out) {
          Z[n * pc.Out + o] = acc[a][b] + B[o];
        }
      }
    }
  }
  let per_row = pc.sets / pc.N;
  let last = min(n0 + 4u, pc.N);
  let M = f32(pc.members);
  for (var s = n0 * per_row; s < last * per_row; s++) {
    var mean = 0.0;
    if ((pc.flags & 1u) == 0u) {
      mean = part_sum(s, 0u, 1u) / M;
    }
    let rstd = inverseSqrt(part_squares(s, 0u, 1u, mean) / M + pc.eps);
    STATS[2u * s] = mean;
    STATS[2u * s + 1u] = rstd;
    norm_write(s, 0u, 1u, mean, rstd);
  }
}
