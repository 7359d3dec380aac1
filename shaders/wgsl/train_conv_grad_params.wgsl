// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_grad_params.comp's twin, both reductions over N·H·W, each in that kernel's order of partials:
// ∂W[co,ci,ky,kx] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1] as 64 partials, partial p the rows (n, i) =
// p, p + 64, … in turn (dy loaded once for all 9, x through a 3×3 window slid along the row); then the 64
// partials in 8 rows of 8 (row r: partials r, r + 8, …, r + 56) and the 8 row sums (the GLSL's wg_sum_a
// order is the device's). ∂b[co] = Σ_n,i,j dy[n,co,i,j] as 64 partials, partial p every 64th element from
// p, then workgroup_sum.wgsl's order: 4 rows of 16 (row r: partials r, r + 4, …) and the 4 row sums.
// One invocation makes each sum whole, a row at a time, in registers (no arrays: SwiftShader keeps an
// indexed array in memory) and without workgroup barriers, which on SwiftShader cost more than the sums:
// invocation id < Cout·Cin makes the 9 weights of (co, ci) = (id / Cin, id % Cin), id = Cout·Cin + co the
// bias ∂b[co]; the plan's Cout·Cin + Cout workgroups of 64 leave the others idle. Writes ∂W and ∂b.
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

// ∂W[co, ci]'s 9 partial sums of one partial (rows r = p, p + 64, … of the N·H), as 3 rows ky of 3 kx.
struct Taps {
  a0 : vec3<f32>,
  a1 : vec3<f32>,
  a2 : vec3<f32>,
}

fn partial(p : u32, co : u32, ci : u32) -> Taps {
  var t = Taps(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
  let hw = pc.h * pc.w;
  let w = i32(pc.w);
  let h = i32(pc.h);
  for (var r = p; r < pc.n * pc.h; r += WG) {
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
      t.a0 += d * w0;
      t.a1 += d * w1;
      t.a2 += d * w2;
      let inside = j + 2 < w;
      let c = u32(min(j + 2, w - 1));  // clamped: the loads stay in bounds
      w0 = vec3<f32>(w0.yz, select(0.0, x[up + c], up_in && inside));
      w1 = vec3<f32>(w1.yz, select(0.0, x[mid + c], inside));
      w2 = vec3<f32>(w2.yz, select(0.0, x[down + c], down_in && inside));
    }
  }
  return t;
}

// ∂W[co, ci, ·, ·]: row r of 8 sums partials r, r + 8, … in turn, then the rows are added in turn.
fn weights(co : u32, ci : u32) {
  var total = Taps(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
  for (var row = 0u; row < 8u; row++) {
    var s = Taps(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
    for (var m = 0u; m < 8u; m++) {
      let t = partial(row + m * 8u, co, ci);
      s.a0 += t.a0;
      s.a1 += t.a1;
      s.a2 += t.a2;
    }
    total.a0 += s.a0;
    total.a1 += s.a1;
    total.a2 += s.a2;
  }
  let o = (co * pc.cin + ci) * 9u;
  for (var k = 0u; k < 3u; k++) {
    dw[o + k] = total.a0[k];
    dw[o + 3u + k] = total.a1[k];
    dw[o + 6u + k] = total.a2[k];
  }
}

// ∂b[co]: partial p sums every 64th element from p; row r of 4 sums partials r, r + 4, … in turn (as
// workgroup_sum.wgsl with 64 values), then the rows are added in turn.
fn bias(co : u32) {
  let hw = pc.h * pc.w;
  var total = 0.0;
  for (var row = 0u; row < 4u; row++) {
    var s = 0.0;
    for (var m = 0u; m < 16u; m++) {
      var sum = 0.0;
      for (var t = row + m * 4u; t < pc.n * hw; t += WG) {
        sum += dy[((t / hw) * pc.cout + co) * hw + t % hw];
      }
      s += sum;
    }
    total += s;
  }
  db[co] = total;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let id = (wid.x + wid.y * nwg.x) * WG + li;
  let pairs = pc.cout * pc.cin;
  if (id < pairs) {
    weights(id / pc.cin, id % pc.cin);
  } else if (id < pairs + pc.cout) {
    bias(id - pairs);
  }
}
