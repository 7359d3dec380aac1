// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp),
// train_conv_grad_params.comp's twin, both reductions over N·H·W, each in that kernel's order of partials:
// ∂W[co,ci,ky,kx] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1] as 64 partials, partial p the rows (n, i) =
// p, p + 64, … in turn (x through a 3×3 window slid along the row); then the 64 partials in 8 rows of 8
// (row r: partials r, r + 8, …, r + 56) and the 8 row sums (the GLSL's wg_sum_a order is the device's).
// ∂b[co] = Σ_n,i,j dy[n,co,i,j] as 64 partials, partial p every 64th element from p, then
// workgroup_sum.wgsl's order: 4 rows of 16 (row r: partials r, r + 4, …) and the 4 row sums.
// One invocation makes each sum whole, a row at a time, in registers (no arrays: SwiftShader keeps an
// indexed array in memory) and without workgroup barriers, which on SwiftShader cost more than the sums.
// Invocation id < ⌈Cout/4⌉·Cin makes the 36 weights of output channels co0 = 4·(id / Cin) … co0 + 3 and
// input channel ci = id % Cin, each dy value loaded once for its channel's 9 and each x value once for the
// 4 channels (on SwiftShader every buffer load is a gather over the SIMD lanes: 7 loads per 36 products,
// not 4 per 9); id = Cout·Cin + co makes ∂b[co]; the rest of the plan's Cout·Cin + Cout workgroups of 64
// idle. Writes ∂W and ∂b.
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

// ∂W[co0 + c, ci]'s 9 partial sums of one partial (rows r = p, p + 64, … of the N·H), c = 0 … 3, each as 3
// rows ky of 3 kx: a<c><ky>.
struct Taps {
  a00 : vec3<f32>, a01 : vec3<f32>, a02 : vec3<f32>,
  a10 : vec3<f32>, a11 : vec3<f32>, a12 : vec3<f32>,
  a20 : vec3<f32>, a21 : vec3<f32>, a22 : vec3<f32>,
  a30 : vec3<f32>, a31 : vec3<f32>, a32 : vec3<f32>,
}

fn zero_taps() -> Taps {
  let z = vec3<f32>(0.0);
  return Taps(z, z, z, z, z, z, z, z, z, z, z, z);
}

fn add_taps(s : ptr<function, Taps>, t : Taps) {
  (*s).a00 += t.a00;
  (*s).a01 += t.a01;
  (*s).a02 += t.a02;
  (*s).a10 += t.a10;
  (*s).a11 += t.a11;
  (*s).a12 += t.a12;
  (*s).a20 += t.a20;
  (*s).a21 += t.a21;
  (*s).a22 += t.a22;
  (*s).a30 += t.a30;
  (*s).a31 += t.a31;
  (*s).a32 += t.a32;
}

// dy's offsets for the 4 channels' planes of image n start at dyc[c] + n·Cout·H·W (channels past Cout: the
// last one's). Each dy value is loaded once for its channel's 9 taps, each x value once for the 4 channels.
fn partial(p : u32, dyc : vec4<u32>, ci : u32) -> Taps {
  var t = zero_taps();
  let hw = pc.h * pc.w;
  let w = i32(pc.w);
  let h = i32(pc.h);
  for (var r = p; r < pc.n * pc.h; r += WG) {
    let n = r / pc.h;
    let i = i32(r % pc.h);
    let dyb = dyc + vec4<u32>(n * pc.cout * hw + u32(i) * pc.w);
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
      let d = vec4<f32>(dy[dyb.x + u32(j)], dy[dyb.y + u32(j)], dy[dyb.z + u32(j)], dy[dyb.w + u32(j)]);
      t.a00 += d.x * w0;
      t.a01 += d.x * w1;
      t.a02 += d.x * w2;
      t.a10 += d.y * w0;
      t.a11 += d.y * w1;
      t.a12 += d.y * w2;
      t.a20 += d.z * w0;
      t.a21 += d.z * w1;
      t.a22 += d.z * w2;
      t.a30 += d.w * w0;
      t.a31 += d.w * w1;
      t.a32 += d.w * w2;
      let inside = j + 2 < w;
      let c = u32(min(j + 2, w - 1));  // clamped: the loads stay in bounds
      w0 = vec3<f32>(w0.yz, select(0.0, x[up + c], up_in && inside));
      w1 = vec3<f32>(w1.yz, select(0.0, x[mid + c], inside));
      w2 = vec3<f32>(w2.yz, select(0.0, x[down + c], down_in && inside));
    }
  }
  return t;
}

// Channel co's 9 weights of input channel ci (nothing past Cout).
fn store(co : u32, ci : u32, a0 : vec3<f32>, a1 : vec3<f32>, a2 : vec3<f32>) {
  if (co >= pc.cout) {
    return;
  }
  let o = (co * pc.cin + ci) * 9u;
  for (var k = 0u; k < 3u; k++) {
    dw[o + k] = a0[k];
    dw[o + 3u + k] = a1[k];
    dw[o + 6u + k] = a2[k];
  }
}

// ∂W[co0 … co0+3, ci, ·, ·]: row r of 8 sums partials r, r + 8, … in turn, then the rows are added in turn.
fn weights(co0 : u32, ci : u32) {
  let hw = pc.h * pc.w;
  let last = pc.cout - 1u;
  let dyc = vec4<u32>(co0, min(co0 + 1u, last), min(co0 + 2u, last), min(co0 + 3u, last)) * hw;
  var total = zero_taps();
  for (var row = 0u; row < 8u; row++) {
    var s = zero_taps();
    for (var m = 0u; m < 8u; m++) {
      add_taps(&s, partial(row + m * 8u, dyc, ci));
    }
    add_taps(&total, s);
  }
  store(co0, ci, total.a00, total.a01, total.a02);
  store(co0 + 1u, ci, total.a10, total.a11, total.a12);
  store(co0 + 2u, ci, total.a20, total.a21, total.a22);
  store(co0 + 3u, ci, total.a30, total.a31, total.a32);
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
  if (id < (pc.cout + 3u) / 4u * pc.cin) {
    weights((id / pc.cin) * 4u, id % pc.cin);
  } else if (id < pairs) {
    return;
  } else if (id < pairs + pc.cout) {
    bias(id - pairs);
  }
}
