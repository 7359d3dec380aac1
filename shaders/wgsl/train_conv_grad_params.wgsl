// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_grad_params.comp's twin, both reductions over N·H·W. Workgroup g < Cout·Cin sums the 9 weights of
// (co, ci) = (g / Cin, g % Cin): ∂W[co,ci,ky,kx] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1]: each invocation
// walks every 64th row (n, i) of the planes, dy loaded once for all 9 and x through a 3×3 window slid along
// the row, so it sums ⌈N·H/64⌉·W terms in order; then workgroup_sum.wgsl adds the 64 partials. Workgroup
// Cout·Cin + co sums ∂b[co] = Σ_n,i,j dy[n,co,i,j], every 64th element per invocation. Writes ∂W and ∂b.
// append: workgroup_sum.wgsl
const WG : u32 = 64u;

struct Push {
  n : u32,
  cin : u32,
  cout : u32,
  h : u32,
  w : u32,
}

@group(0) @binding(0) var<storage, read_write> x : array<f32>;
@group(0) @binding(1) var<storage, read_write> dy : array<f32>;
@group(0) @binding(2) var<storage, read_write> dw : array<f32>;
@group(0) @binding(3) var<storage, read_write> db : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

// x[n, ci, yi, xj] of the plane at xb, 0 outside the image (the index clamped, so that a load the compiler
// hoists out of the condition stays in bounds).
fn x_at(xb : u32, yi : i32, xj : i32) -> f32 {
  let h = i32(pc.h);
  let w = i32(pc.w);
  let v = x[xb + u32(clamp(yi, 0, h - 1) * w + clamp(xj, 0, w - 1))];
  return select(0.0, v, yi >= 0 && yi < h && xj >= 0 && xj < w);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let g = wid.x + wid.y * nwg.x;
  let pairs = pc.cout * pc.cin;
  if (g >= pairs + pc.cout) {
    return;  // the whole workgroup leaves: no barrier is skipped by part of it
  }
  let hw = pc.h * pc.w;
  if (g >= pairs) {
    let co = g - pairs;
    var sum = 0.0;
    for (var t = li; t < pc.n * hw; t += WG) {
      sum += dy[((t / hw) * pc.cout + co) * hw + t % hw];
    }
    let total = workgroup_sum(li, sum);
    if (li == 0u) {
      db[co] = total;
    }
    return;
  }
  let co = g / pc.cin;
  let ci = g % pc.cin;
  var acc : array<f32, 9>;
  let w = i32(pc.w);
  for (var r = li; r < pc.n * pc.h; r += WG) {
    let n = r / pc.h;
    let i = i32(r % pc.h);
    let dyb = (n * pc.cout + co) * hw + u32(i) * pc.w;
    let xb = (n * pc.cin + ci) * hw;
    var win : array<f32, 9>;  // win[ky·3 + kx] = x[n, ci, i+ky−1, j+kx−1] (0 outside), slid along the row
    for (var ky = 0; ky < 3; ky++) {
      win[ky * 3] = 0.0;
      win[ky * 3 + 1] = x_at(xb, i + ky - 1, 0);
      win[ky * 3 + 2] = x_at(xb, i + ky - 1, 1);
    }
    for (var j = 0; j < w; j++) {
      let d = dy[dyb + u32(j)];
      for (var k = 0; k < 9; k++) {
        acc[k] += d * win[k];
      }
      for (var ky = 0; ky < 3; ky++) {
        win[ky * 3] = win[ky * 3 + 1];
        win[ky * 3 + 1] = win[ky * 3 + 2];
        win[ky * 3 + 2] = x_at(xb, i + ky - 1, j + 2);
      }
    }
  }
  for (var k = 0u; k < 9u; k++) {
    let total = workgroup_sum(li, acc[k]);
    if (li == 0u) {
      dw[g * 9u + k] = total;
    }
  }
}
