// Training norms: one set's forward arithmetic (train_norm_set.glsl's twin), shared by train_norm_fwd.wgsl
// and train_linear_norm.wgsl (each sum in order of the invocation's members m = t, t + stride, …). The kernel
// declares the norm's input Z, its outputs Y and XHAT, GAMMA, BETA and pc's layout words and flags, and
// appends train_norm_common.wgsl and train_act_common.wgsl.

// Invocation t's part of Σ z over set s (every stride-th member from t).
fn part_sum(s : u32, t : u32, stride : u32) -> f32 {
  var acc = 0.0;
  for (var m = t; m < pc.members; m += stride) {
    acc += Z[norm_address(s, m)];
  }
  return acc;
}

// Invocation t's part of Σ (z − mean)² over set s.
fn part_squares(s : u32, t : u32, stride : u32, mean : f32) -> f32 {
  var acc = 0.0;
  for (var m = t; m < pc.members; m += stride) {
    let d = Z[norm_address(s, m)] - mean;
    acc += d * d;
  }
  return acc;
}

// xhat = (z − mean)·rstd and Y = f(xhat·γ[c] (+ β[c])) of the invocation's members of set s (f: flags >> 5).
fn norm_write(s : u32, t : u32, stride : u32, mean : f32, rstd : f32) {
  let has_bias = (pc.flags & 8u) != 0u;
  for (var m = t; m < pc.members; m += stride) {
    let a = norm_address(s, m);
    let c = norm_channel(a);
    let xh = (Z[a] - mean) * rstd;
    XHAT[a] = xh;
    var b = 0.0;
    if (has_bias) {
      b = BETA[c];
    }
    Y[a] = act_apply(pc.flags >> 5u, xh * GAMMA[c] + b);
  }
}
