// Global average pool forward on NCHW float32 (engine/train/pool_plan.hpp), train_pool_global_forward.comp's
// twin: workgroup p (a plane n·C + c) sums its H·W values, every 64th in order per invocation and the 64
// partials by workgroup_sum.wgsl (a plane of at most 256 values: its first invocation, in order), and writes
// y[p] = sum / (H·W).
// append: workgroup_sum.wgsl
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
  let p = wid.x + wid.y * nwg.x;
  if (p >= pc.planes) {
    return;  // the whole workgroup leaves: no barrier is skipped by part of it
  }
  if (pc.hw <= 256u) {  // a small plane: one invocation sums it in order, no barrier (SwiftShader's cost)
    if (li == 0u) {
      var sum = 0.0;
      for (var t = 0u; t < pc.hw; t++) {
        sum += x[p * pc.hw + t];
      }
      y[p] = sum / f32(pc.hw);
    }
    return;
  }
  var acc = 0.0;
  for (var t = li; t < pc.hw; t += WG) {
    acc += x[p * pc.hw + t];
  }
  let total = workgroup_sum(li, acc);
  if (li == 0u) {
    y[p] = total / f32(pc.hw);
  }
}
