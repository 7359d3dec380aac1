// Conv2d 3×3 (padding 1) backward to its input on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_backward_input.comp's twin: dx[n,ci,i,j] = Σ_co Σ_ky,kx W[co,ci,ky,kx]·dy[n,co,i−ky+1,j−kx+1] (dy
// zero outside the image), summed in the GLSL kernel's order: Cout·9 terms. An invocation computes 4 input
// channels ci0 … ci0+3 at 8 pixels (i, j0 … j0+7) of a row (the GLSL's 4: on SwiftShader every buffer load
// is a per-lane gather, and 8 pixels share each weight load), in registers (no arrays: on SwiftShader an
// indexed array lives in memory). Workgroups of 32 cover the pixels of the plan's workgroups of 64,
// striding by the grid where rows of 8 need more. Block id = (n·⌈Cin/4⌉ + ci0/4)·H·⌈W/8⌉ + i·⌈W/8⌉ + j0/8.
// Channels past Cin repeat the last one's weights and pixels past W read padding; neither is written.
// Writes dx (no accumulation).
const WG : u32 = 32u;

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

// The 4 channels' weights at tap k (channel c's at k + o<c>).
fn taps(k : u32, o1 : u32, o2 : u32, o3 : u32) -> vec4<f32> {
  return vec4<f32>(wt[k], wt[k + o1], wt[k + o2], wt[k + o3]);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let ow = (pc.w + 7u) / 8u;
  let blocks_per_plane = pc.h * ow;
  let cblocks = (pc.cin + 3u) / 4u;
  let blocks = pc.n * cblocks * blocks_per_plane;
  let h = i32(pc.h);
  let w = i32(pc.w);
  let hw = pc.h * pc.w;
  for (var id = (wid.x + wid.y * nwg.x) * WG + li; id < blocks; id += nwg.x * nwg.y * WG) {
    let plane = id / blocks_per_plane;  // n·⌈Cin/4⌉ + ci0/4
    let ci0 = (plane % cblocks) * 4u;
    let n = plane / cblocks;
    let q = id % blocks_per_plane;
    let i = i32(q / ow);
    let j0 = i32(q % ow) * 8;
    let cn = min(4u, pc.cin - ci0);
    let o1 = min(1u, cn - 1u) * 9u;
    let o2 = min(2u, cn - 1u) * 9u;
    let o3 = min(3u, cn - 1u) * 9u;
    var a0 = vec4<f32>(0.0);  // pixel j0 + p: a<p>, one component per channel
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    var a4 = vec4<f32>(0.0);
    var a5 = vec4<f32>(0.0);
    var a6 = vec4<f32>(0.0);
    var a7 = vec4<f32>(0.0);
    for (var co = 0u; co < pc.cout; co++) {
      let db = (n * pc.cout + co) * hw;
      let wb = (co * pc.cin + ci0) * 9u;
      for (var ky = 0; ky < 3; ky++) {
        let yo = i - ky + 1;
        if (yo < 0 || yo >= h) {
          continue;
        }
        let row = db + u32(yo * w);
        // dy[yo, j0−1 … j0+8], 0 outside
        let r0 = dy_at(row, j0 - 1);
        let r1 = dy_at(row, j0);
        let r2 = dy_at(row, j0 + 1);
        let r3 = dy_at(row, j0 + 2);
        let r4 = dy_at(row, j0 + 3);
        let r5 = dy_at(row, j0 + 4);
        let r6 = dy_at(row, j0 + 5);
        let r7 = dy_at(row, j0 + 6);
        let r8 = dy_at(row, j0 + 7);
        let r9 = dy_at(row, j0 + 8);
        let k = wb + u32(ky * 3);
        // kx = 0, 1, 2 in turn, each adding dy[j − kx + 1] to the 8 pixels (the GLSL loops unrolled)
        var wv = taps(k, o1, o2, o3);
        a0 += wv * r2;
        a1 += wv * r3;
        a2 += wv * r4;
        a3 += wv * r5;
        a4 += wv * r6;
        a5 += wv * r7;
        a6 += wv * r8;
        a7 += wv * r9;
        wv = taps(k + 1u, o1, o2, o3);
        a0 += wv * r1;
        a1 += wv * r2;
        a2 += wv * r3;
        a3 += wv * r4;
        a4 += wv * r5;
        a5 += wv * r6;
        a6 += wv * r7;
        a7 += wv * r8;
        wv = taps(k + 2u, o1, o2, o3);
        a0 += wv * r0;
        a1 += wv * r1;
        a2 += wv * r2;
        a3 += wv * r3;
        a4 += wv * r4;
        a5 += wv * r5;
        a6 += wv * r6;
        a7 += wv * r7;
      }
    }
    let o = (n * pc.cin + ci0) * hw + u32(i * w + j0);
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
