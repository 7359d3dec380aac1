// Conv2d 3×3 (padding 1) backward to its input on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_backward_input.comp's twin: dx[n,ci,i,j] = Σ_co Σ_ky,kx W[co,ci,ky,kx]·dy[n,co,i−ky+1,j−kx+1] (dy
// zero outside the image), summed in the GLSL kernel's order: Cout·9 terms. An invocation computes 4 input
// channels ci0 … ci0+3 at 4 pixels (i, j0 … j0+3) of a row. Invocation id = (n·⌈Cin/4⌉ + ci0/4)·H·⌈W/4⌉ +
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
  var acc = array<vec4<f32>, 4>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  for (var co = 0u; co < pc.cout; co++) {
    let db = (n * pc.cout + co) * hw;
    let wb = (co * pc.cin + ci0) * 9u;
    for (var ky = 0; ky < 3; ky++) {
      let yo = i - ky + 1;
      if (yo < 0 || yo >= h) {
        continue;
      }
      var r : array<f32, 6>;  // dy[yo, j0−1 … j0+4], 0 outside (the index clamped: the load stays in bounds)
      for (var c = 0; c < 6; c++) {
        let xo = j0 + c - 1;
        let v = dy[db + u32(yo * w + clamp(xo, 0, w - 1))];
        r[c] = select(0.0, v, xo >= 0 && xo < w);
      }
      for (var kx = 0; kx < 3; kx++) {
        let k = wb + u32(ky * 3 + kx);
        let wv = vec4<f32>(wt[k], wt[k + o1], wt[k + o2], wt[k + o3]);
        for (var p = 0; p < 4; p++) {
          acc[p] += wv * r[p - kx + 2];
        }
      }
    }
  }
  for (var p = 0; p < 4; p++) {
    if (j0 + p >= w) {
      break;
    }
    let o = (n * pc.cin + ci0) * hw + u32(i * w + j0 + p);
    for (var c = 0u; c < cn; c++) {
      dx[o + c * hw] = acc[p][c];
    }
  }
}
