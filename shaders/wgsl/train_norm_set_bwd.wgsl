// Training norms: one set's input gradient (train_norm_set_bwd.glsl's twin), shared by train_norm_bwd.wgsl and
// train_norm_linear_dx.wgsl (each sum in order of the invocation's members m = t, t + stride, …): g = DY·γ[c],
// DZ = rstd·(g − mean(g) − xhat·mean(g·xhat)) (rms, flag 1: without the − mean(g)). The kernel declares DY,
// XHAT, STATS, GAMMA, the output DZ and pc's layout words and flags, and appends train_norm_common.wgsl.

// Invocation t's part of (Σ g, Σ g·xhat) over set s (every stride-th member from t).
fn part_sums(s : u32, t : u32, stride : u32) -> vec2<f32> {
  var sg = 0.0;
  var sgx = 0.0;
  for (var m = t; m < pc.members; m += stride) {
    let a = norm_address(s, m);
    let g = DY[a] * GAMMA[norm_channel(a)];
    sg += g;
    sgx += g * XHAT[a];
  }
  return vec2<f32>(sg, sgx);
}

// DZ of set s from its sums.
fn apply_set(s : u32, t : u32, stride : u32, sums : vec2<f32>) {
  let M = f32(pc.members);
  var mg = sums.x / M;
  if ((pc.flags & 1u) != 0u) {
    mg = 0.0;
  }
  let mgx = sums.y / M;
  let rstd = STATS[2u * s + 1u];
  for (var m = t; m < pc.members; m += stride) {
    let a = norm_address(s, m);
    let g = DY[a] * GAMMA[norm_channel(a)];
    DZ[a] = rstd * (g - mg - XHAT[a] * mgx);
  }
}
