// Conv2d(Cin, Cout, 3, stride 1, padding 1) forward on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_forward.comp's twin: y[n,co,i,j] = b[co] + Σ_ci Σ_ky,kx W[co,ci,ky,kx]·x[n,ci,i+ky−1,j+kx−1]
// (x zero outside the image), summed in the GLSL kernel's order: Cin·9 + 1 terms. An invocation computes 4
// output channels co0 … co0+3 at 4 pixels (i, j0 … j0+3) of a row. Invocation id = (n·⌈Cout/4⌉ + co0/4)·H·⌈W/4⌉
// + i·⌈W/4⌉ + j0/4. Channels past Cout repeat the last one's weights and pixels past W read padding; neither
// is written.
struct Push {
  n : u32,
  cin : u32,
  cout : u32,
  h : u32,
  w : u32,
}

@group(0) @binding(0) var<storage, read_write> x : array<f32>;
@group(0) @binding(1) var<storage, read_write> wt : array<f32>;
@group(0) @binding(2) var<storage, read_write> b : array<f32>;
@group(0) @binding(3) var<storage, read_write> y : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

// x at column xj of the row starting at `row`, 0 outside the image (the index clamped: the load stays in bounds).
fn x_at(row : u32, xj : i32) -> f32 {
  let w = i32(pc.w);
  let v = x[row + u32(clamp(xj, 0, w - 1))];
  return select(0.0, v, xj >= 0 && xj < w);
}

// The first `cn` channels of pixel column j at output index o (nothing past the image's width).
fn store(o : u32, j : i32, cn : u32, v : vec4<f32>) {
  if (j >= i32(pc.w)) {
    return;
  }
  for (var c = 0u; c < cn; c++) {
    y[o + c * pc.h * pc.w] = v[c];
  }
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let id = (wid.x + wid.y * nwg.x) * 64u + li;
  let qw = (pc.w + 3u) / 4u;
  let quads = pc.h * qw;
  let cblocks = (pc.cout + 3u) / 4u;
  let plane = id / quads;  // n·⌈Cout/4⌉ + co0/4
  if (plane >= pc.n * cblocks) {
    return;
  }
  let co0 = (plane % cblocks) * 4u;
  let n = plane / cblocks;
  let q = id % quads;
  let h = i32(pc.h);
  let w = i32(pc.w);
  let i = i32(q / qw);
  let j0 = i32(q % qw) * 4;
  let cn = min(4u, pc.cout - co0);
  let ws = pc.cin * 9u;
  let w0 = co0 * ws;
  let w1 = min(co0 + 1u, pc.cout - 1u) * ws;
  let w2 = min(co0 + 2u, pc.cout - 1u) * ws;
  let w3 = min(co0 + 3u, pc.cout - 1u) * ws;
  let bias = vec4<f32>(b[co0], b[w1 / ws], b[w2 / ws], b[w3 / ws]);
  var acc0 = bias;  // pixel j0 + p: acc<p>, one component per channel
  var acc1 = bias;
  var acc2 = bias;
  var acc3 = bias;
  for (var ci = 0u; ci < pc.cin; ci++) {
    let xb = (n * pc.cin + ci) * pc.h * pc.w;
    for (var ky = 0; ky < 3; ky++) {
      let yi = i + ky - 1;
      if (yi < 0 || yi >= h) {
        continue;
      }
      let row = xb + u32(yi * w);
      // x[yi, j0−1 … j0+4], 0 outside
      let r0 = x_at(row, j0 - 1);
      let r1 = x_at(row, j0);
      let r2 = x_at(row, j0 + 1);
      let r3 = x_at(row, j0 + 2);
      let r4 = x_at(row, j0 + 3);
      let r5 = x_at(row, j0 + 4);
      let k = ci * 9u + u32(ky * 3);
      // kx = 0, 1, 2 in turn, each adding to the 4 pixels in order (the GLSL kernel's loops unrolled)
      var wv = vec4<f32>(wt[w0 + k], wt[w1 + k], wt[w2 + k], wt[w3 + k]);
      acc0 += wv * r0;
      acc1 += wv * r1;
      acc2 += wv * r2;
      acc3 += wv * r3;
      wv = vec4<f32>(wt[w0 + k + 1u], wt[w1 + k + 1u], wt[w2 + k + 1u], wt[w3 + k + 1u]);
      acc0 += wv * r1;
      acc1 += wv * r2;
      acc2 += wv * r3;
      acc3 += wv * r4;
      wv = vec4<f32>(wt[w0 + k + 2u], wt[w1 + k + 2u], wt[w2 + k + 2u], wt[w3 + k + 2u]);
      acc0 += wv * r2;
      acc1 += wv * r3;
      acc2 += wv * r4;
      acc3 += wv * r5;
    }
  }
  let o = (n * pc.cout + co0) * pc.h * pc.w + u32(i * w + j0);
  store(o, j0, cn, acc0);
  store(o + 1u, j0 + 1, cn, acc1);
  store(o + 2u, j0 + 2, cn, acc2);
  store(o + 3u, j0 + 3, cn, acc3);
}
