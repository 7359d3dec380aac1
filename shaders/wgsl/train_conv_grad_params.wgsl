// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_grad_params.comp's twin, both reductions over N·H·W. Workgroup g < Cout·Cin sums the 9 weights of
// (co, ci) = (g / Cin, g % Cin): ∂W[co,ci,ky,kx] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1]: each invocation
// walks every 64th row (n, i) of the planes, dy loaded once for all 9 and x through a 3×3 window slid along
// the row, so it sums ⌈N·H/64⌉·W terms in order (in registers: on SwiftShader an indexed array lives in memory);
// then the 64 partials of each weight in 8 rows of 8 and the 8 row sums (the GLSL kernel's wg_sum_a order is
// the device's). Workgroup
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

var<workgroup> part : array<f32, 576>;  // part[k·64 + invocation]: the 9 weights' partial sums
var<workgroup> rows : array<f32, 72>;   // rows[k·8 + row]

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
  var a0 = vec3<f32>(0.0);  // a<ky>[kx] = ∂W[co, ci, ky, kx]'s partial sum
  var a1 = vec3<f32>(0.0);
  var a2 = vec3<f32>(0.0);
  let w = i32(pc.w);
  let h = i32(pc.h);
  for (var r = li; r < pc.n * pc.h; r += WG) {
    let n = r / pc.h;
    let i = i32(r % pc.h);
    let dyb = (n * pc.cout + co) * hw + u32(i) * pc.w;
    let xb = (n * pc.cin + ci) * hw;
    // The rows i − 1, i, i + 1 of x (clamped into the image) and whether the outer two lie in it.
    let up = xb + u32(max(i - 1, 0)) * pc.w;
    let mid = xb + u32(i) * pc.w;
    let down = xb + u32(min(i + 1, h - 1)) * pc.w;
    let up_in = i >= 1;
    let down_in = i + 1 < h;
    // w<ky>[kx] = x[n, ci, i+ky−1, j+kx−1] (0 outside), slid along the row
    let c1 = min(1u, pc.w - 1u);  // column 1, clamped: the loads stay in bounds
    var w0 = vec3<f32>(0.0, select(0.0, x[up], up_in), select(0.0, x[up + c1], up_in && w > 1));
    var w1 = vec3<f32>(0.0, x[mid], select(0.0, x[mid + c1], w > 1));
    var w2 = vec3<f32>(0.0, select(0.0, x[down], down_in), select(0.0, x[down + c1], down_in && w > 1));
    for (var j = 0; j < w; j++) {
      let d = dy[dyb + u32(j)];
      a0 += d * w0;
      a1 += d * w1;
      a2 += d * w2;
      let inside = j + 2 < w;
      let c = u32(min(j + 2, w - 1));  // clamped: the loads stay in bounds
      w0 = vec3<f32>(w0.yz, select(0.0, x[up + c], up_in && inside));
      w1 = vec3<f32>(w1.yz, select(0.0, x[mid + c], inside));
      w2 = vec3<f32>(w2.yz, select(0.0, x[down + c], down_in && inside));
    }
  }
  // The 9 sums of 64 partials with two barriers (on SwiftShader a barrier costs more than the loop):
  // 8 rows of 8 partials each, then the 8 row sums.
  part[li] = a0.x;
  part[64u + li] = a0.y;
  part[128u + li] = a0.z;
  part[192u + li] = a1.x;
  part[256u + li] = a1.y;
  part[320u + li] = a1.z;
  part[384u + li] = a2.x;
  part[448u + li] = a2.y;
  part[512u + li] = a2.z;
  workgroupBarrier();  // all partials stored before the rows are summed
  for (var task = li; task < 72u; task += WG) {  // task = k·8 + row
    let base = (task / 8u) * 64u + task % 8u;
    var t = 0.0;
    for (var m = 0u; m < 8u; m++) {
      t += part[base + m * 8u];
    }
    rows[task] = t;
  }
  workgroupBarrier();  // the row sums stored before they are added
  if (li < 9u) {
    var total = 0.0;
    for (var m = 0u; m < 8u; m++) {
      total += rows[li * 8u + m];
    }
    dw[g * 9u + li] = total;
  }
}
