// Conv2d(Cin, Cout, 3, stride 1, padding 1) forward on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_forward.comp's twin: y[n,co,i,j] = b[co] + Σ_ci Σ_ky,kx W[co,ci,ky,kx]·x[n,ci,i+ky−1,j+kx−1]
// (x zero outside the image), summed in the GLSL kernel's order: Cin·9 + 1 terms. An invocation computes 4
// output channels co0 … co0+3 at 8 pixels (i, j0 … j0+7) of a row (the GLSL's 4: on SwiftShader every
// buffer load is a per-lane gather, and 8 pixels share each weight load: 22 loads per 96 products, not 18
// per 48), in registers (no arrays: SwiftShader keeps an indexed array in memory). Workgroups of 32 cover
// the pixels of the plan's workgroups of 64 (its ⌈N·⌈Cout/4⌉·H·⌈W/4⌉ / 64⌉), striding by the grid where
// rows of 8 need more. Block id = (n·⌈Cout/4⌉ + co0/4)·H·⌈W/8⌉ + i·⌈W/8⌉ + j0/8. Channels past Cout repeat
// the last one's weights and pixels past W read padding; neither is written.
const WG : u32 = 32u;

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

// The 4 channels' weights at tap k of the input channel (offsets w0 … w3 of the channels' weights).
fn taps(w0 : u32, w1 : u32, w2 : u32, w3 : u32, k : u32) -> vec4<f32> {
  return vec4<f32>(wt[w0 + k], wt[w1 + k], wt[w2 + k], wt[w3 + k]);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let ow = (pc.w + 7u) / 8u;
  let blocks_per_plane = pc.h * ow;
  let cblocks = (pc.cout + 3u) / 4u;
  let blocks = pc.n * cblocks * blocks_per_plane;
  let h = i32(pc.h);
  let w = i32(pc.w);
  let ws = pc.cin * 9u;
  for (var id = (wid.x + wid.y * nwg.x) * WG + li; id < blocks; id += nwg.x * nwg.y * WG) {
    let plane = id / blocks_per_plane;  // n·⌈Cout/4⌉ + co0/4
    let co0 = (plane % cblocks) * 4u;
    let n = plane / cblocks;
    let q = id % blocks_per_plane;
    let i = i32(q / ow);
    let j0 = i32(q % ow) * 8;
    let cn = min(4u, pc.cout - co0);
    let w0 = co0 * ws;
    let w1 = min(co0 + 1u, pc.cout - 1u) * ws;
    let w2 = min(co0 + 2u, pc.cout - 1u) * ws;
    let w3 = min(co0 + 3u, pc.cout - 1u) * ws;
    let bias = vec4<f32>(b[co0], b[w1 / ws], b[w2 / ws], b[w3 / ws]);
    var a0 = bias;  // pixel j0 + p: a<p>, one component per channel
    var a1 = bias;
    var a2 = bias;
    var a3 = bias;
    var a4 = bias;
    var a5 = bias;
    var a6 = bias;
    var a7 = bias;
    for (var ci = 0u; ci < pc.cin; ci++) {
      let xb = (n * pc.cin + ci) * pc.h * pc.w;
      for (var ky = 0; ky < 3; ky++) {
        let yi = i + ky - 1;
        if (yi < 0 || yi >= h) {
          continue;
        }
        let row = xb + u32(yi * w);
        // x[yi, j0−1 … j0+8], 0 outside
        let r0 = x_at(row, j0 - 1);
        let r1 = x_at(row, j0);
        let r2 = x_at(row, j0 + 1);
        let r3 = x_at(row, j0 + 2);
        let r4 = x_at(row, j0 + 3);
        let r5 = x_at(row, j0 + 4);
        let r6 = x_at(row, j0 + 5);
        let r7 = x_at(row, j0 + 6);
        let r8 = x_at(row, j0 + 7);
        let r9 = x_at(row, j0 + 8);
        let k = ci * 9u + u32(ky * 3);
        // kx = 0, 1, 2 in turn, each adding to the 8 pixels (the GLSL kernel's loops unrolled)
        var wv = taps(w0, w1, w2, w3, k);
        a0 += wv * r0;
        a1 += wv * r1;
        a2 += wv * r2;
        a3 += wv * r3;
        a4 += wv * r4;
        a5 += wv * r5;
        a6 += wv * r6;
        a7 += wv * r7;
        wv = taps(w0, w1, w2, w3, k + 1u);
        a0 += wv * r1;
        a1 += wv * r2;
        a2 += wv * r3;
        a3 += wv * r4;
        a4 += wv * r5;
        a5 += wv * r6;
        a6 += wv * r7;
        a7 += wv * r8;
        wv = taps(w0, w1, w2, w3, k + 2u);
        a0 += wv * r2;
        a1 += wv * r3;
        a2 += wv * r4;
        a3 += wv * r5;
        a4 += wv * r6;
        a5 += wv * r7;
        a6 += wv * r8;
        a7 += wv * r9;
      }
    }
    let o = (n * pc.cout + co0) * pc.h * pc.w + u32(i * w + j0);
    store(o, j0, cn, a0);
    store(o + 1u, j0 + 1, cn, a1);
    store(o + 2u, j0 + 2, cn, a2);
    store(o + 3u, j0 + 3, cn, a3);
    store(o + 4u, j0 + 4, cn, a4);
    store(o + 5u, j0 + 5, cn, a5);
    store(o + 6u, j0 + 6, cn, a6);
    store(o + 7u, j0 + 7, cn, a7);
  }
}
