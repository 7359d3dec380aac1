// Global average pool backward on NCHW float32 (engine/train/pool_plan.hpp), train_pool_global_backward.comp's
// twin: one invocation per input element, dx[p,k] = dy[p] / (H·W). Writes dx.
struct Push {
  planes : u32,
  hw : u32,
}

@group(0) @binding(0) var<storage, read_write> dy : array<f32>;
@group(0) @binding(1) var<storage, read_write> dx : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let id = (wid.x + wid.y * nwg.x) * 64u + li;
  if (id >= pc.planes * pc.hw) {
    return;
  }
  dx[id] = dy[id / pc.hw] / f32(pc.hw);
}
