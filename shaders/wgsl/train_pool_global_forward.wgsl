// Global average pool forward on NCHW float32 (engine/train/pool_plan.hpp), train_pool_global_forward.comp's
// twin: plane p = n·C + c's mean y[p] = sum / (H·W). Invocation p (of the plan's workgroups of 64, one per
// plane) sums plane p alone, without workgroup barriers (on SwiftShader a kernel with a barrier runs every
// workgroup's invocations as coroutines, which cost more than these sums): a plane of at most 256 values
// in order; a larger one as a workgroup would (workgroup_sum.wgsl's order): 64 partials, partial q every
// 64th value from q, then 4 rows of 16 partials (row r: partials r, r + 4, …) and the 4 row sums.
const WG : u32 = 64u;

struct Push {
  planes : u32,
  hw : u32,
}

@group(0) @binding(0) var<storage, read_write> x : array<f32>;
@group(0) @binding(1) var<storage, read_write> y : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let p = (wid.x + wid.y * nwg.x) * WG + li;
  if (p >= pc.planes) {
    return;
  }
  let base = p * pc.hw;
  var sum = 0.0;
  if (pc.hw <= 256u) {
    for (var t = 0u; t < pc.hw; t++) {
      sum += x[base + t];
    }
  } else {
    for (var row = 0u; row < 4u; row++) {
      var s = 0.0;
      for (var m = 0u; m < 16u; m++) {
        var part = 0.0;
        for (var t = row + m * 4u; t < pc.hw; t += WG) {
          part += x[base + t];
        }
        s += part;
      }
      sum += s;
    }
  }
  y[p] = sum / f32(pc.hw);
}
