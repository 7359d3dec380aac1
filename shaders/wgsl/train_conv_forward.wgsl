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
  var acc = array<vec4<f32>, 4>(bias, bias, bias, bias);  // acc[pixel][channel]
  for (var ci = 0u; ci < pc.cin; ci++) {
    let xb = (n * pc.cin + ci) * pc.h * pc.w;
    for (var ky = 0; ky < 3; ky++) {
      let yi = i + ky - 1;
      if (yi < 0 || yi >= h) {
        continue;
      }
      var r : array<f32, 6>;  // x[yi, j0−1 … j0+4], 0 outside (the index clamped: the load stays in bounds)
      for (var c = 0; c < 6; c++) {
        let xj = j0 + c - 1;
        let v = x[xb + u32(yi * w + clamp(xj, 0, w - 1))];
        r[c] = select(0.0, v, xj >= 0 && xj < w);
      }
      for (var kx = 0; kx < 3; kx++) {
        let k = ci * 9u + u32(ky * 3 + kx);
        let wv = vec4<f32>(wt[w0 + k], wt[w1 + k], wt[w2 + k], wt[w3 + k]);
        for (var p = 0; p < 4; p++) {
          acc[p] += wv * r[kx + p];
        }
      }
    }
  }
  let hw = pc.h * pc.w;
  for (var p = 0; p < 4; p++) {
    if (j0 + p >= w) {
      break;
    }
    let o = (n * pc.cout + co0) * hw + u32(i * w + j0 + p);
    for (var c = 0u; c < cn; c++) {
      y[o + c * hw] = acc[p][c];
    }
  }
}
