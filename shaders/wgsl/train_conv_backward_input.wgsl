// Conv2d 3×3 (padding 1) backward to its input on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_backward_input.comp's twin: dx[n,ci,i,j] = Σ_co Σ_ky,kx W[co,ci,ky,kx]·dy[n,co,i−ky+1,j−kx+1] (dy
// zero outside the image), summed in the GLSL kernel's order: Cout·9 terms. An invocation computes 4 input
// channels ci0 … ci0+3 at 4 pixels (i, j0 … j0+3) of a row, in registers (no arrays: on SwiftShader an
// indexed array lives in memory). Invocation id = (n·⌈Cin/4⌉ + ci0/4)·H·⌈W/4⌉ +
// i·⌈W/4⌉ + j0/4. Channels past Cin repeat the last one's weights and pixels past W read padding; neither is
// written. Writes dx (no accumulation).
struct Push {
  n : u32,
  cin : u32,
  cout : u32,
  h : u32,
  w : u32,
}

@group(0) @binding(0) var<storage, read_write> dy : array<f32>;
@group(0) @binding(1) var<storage, read_write> wt : array<f32>;
@group(0) @binding(2) var<storage, read_write> dx : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

// dy at column xo of the row starting at `row`, 0 outside the image (the index clamped: the load stays in
// bounds).
fn dy_at(row : u32, xo : i32) -> f32 {
  let w = i32(pc.w);
  let v = dy[row + u32(clamp(xo, 0, w - 1))];
  return select(0.0, v, xo >= 0 && xo < w);
}

// The first `cn` channels of pixel column j at input index o (nothing past the image's width).
fn store(o : u32, j : i32, cn : u32, v : vec4<f32>) {
  if (j >= i32(pc.w)) {
    return;
  }
  for (var c = 0u; c < cn; c++) {
    dx[o + c * pc.h * pc.w] = v[c];
  }
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let id = (wid.x + wid.y * nwg.x) * 64u + li;
  let qw = (pc.w + 3u) / 4u;
  let quads = pc.h * qw;
  let cblocks = (pc.cin + 3u) / 4u;
  let plane = id / quads;  // n·⌈Cin/4⌉ + ci0/4
  if (plane >= pc.n * cblocks) {
    return;
  }
  let ci0 = (plane % cblocks) * 4u;
  let n = plane / cblocks;
  let q = id % quads;
  let h = i32(pc.h);
  let w = i32(pc.w);
  let i = i32(q / qw);
  let j0 = i32(q % qw) * 4;
  let cn = min(4u, pc.cin - ci0);
  let hw = pc.h * pc.w;
  let o1 = min(1u, cn - 1u) * 9u;
  let o2 = min(2u, cn - 1u) * 9u;
  let o3 = min(3u, cn - 1u) * 9u;
  var acc0 = vec4<f32>(0.0);  // pixel j0 + p: acc<p>, one component per channel
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  for (var co = 0u; co < pc.cout; co++) {
    let db = (n * pc.cout + co) * hw;
    let wb = (co * pc.cin + ci0) * 9u;
    for (var ky = 0; ky < 3; ky++) {
      let yo = i - ky + 1;
      if (yo < 0 || yo >= h) {
        continue;
      }
      let row = db + u32(yo * w);
      // dy[yo, j0−1 … j0+4], 0 outside
      let r0 = dy_at(row, j0 - 1);
      let r1 = dy_at(row, j0);
      let r2 = dy_at(row, j0 + 1);
      let r3 = dy_at(row, j0 + 2);
      let r4 = dy_at(row, j0 + 3);
      let r5 = dy_at(row, j0 + 4);
      let k = wb + u32(ky * 3);
      // kx = 0, 1, 2 in turn, each adding dy[j − kx + 1] to the 4 pixels in order (the GLSL loops unrolled)
      var wv = vec4<f32>(wt[k], wt[k + o1], wt[k + o2], wt[k + o3]);
      acc0 += wv * r2;
      acc1 += wv * r3;
      acc2 += wv * r4;
      acc3 += wv * r5;
      wv = vec4<f32>(wt[k + 1u], wt[k + 1u + o1], wt[k + 1u + o2], wt[k + 1u + o3]);
      acc0 += wv * r1;
      acc1 += wv * r2;
      acc2 += wv * r3;
      acc3 += wv * r4;
      wv = vec4<f32>(wt[k + 2u], wt[k + 2u + o1], wt[k + 2u + o2], wt[k + 2u + o3]);
      acc0 += wv * r0;
      acc1 += wv * r1;
      acc2 += wv * r2;
      acc3 += wv * r3;
    }
  }
  let o = (n * pc.cin + ci0) * hw + u32(i * w + j0);
  store(o, j0, cn, acc0);
  store(o + 1u, j0 + 1, cn, acc1);
  store(o + 2u, j0 + 2, cn, acc2);
  store(o + 3u, j0 + 3, cn, acc3);
}
