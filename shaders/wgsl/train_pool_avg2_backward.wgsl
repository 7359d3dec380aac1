// AvgPool2d(2) backward on NCHW float32 (engine/train/pool_plan.hpp), train_pool_avg2_backward.comp's twin: one
// invocation per input element, dx[p,i,j] = dy[p,i/2,j/2] / 4, and 0 on an odd last row or column that the
// forward dropped. Writes dx.
struct Push {
  planes : u32,
  h : u32,
  w : u32,
}

@group(0) @binding(0) var<storage, read_write> dy : array<f32>;
@group(0) @binding(1) var<storage, read_write> dx : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let id = (wid.x + wid.y * nwg.x) * 64u + li;
  if (id >= pc.planes * pc.h * pc.w) {
    return;
  }
  let j = id % pc.w;
  let i = (id / pc.w) % pc.h;
  let p = id / (pc.h * pc.w);
  let ho = pc.h / 2u;
  let wo = pc.w / 2u;
  var v = 0.0;
  if (i < 2u * ho && j < 2u * wo) {
    v = dy[(p * ho + i / 2u) * wo + j / 2u] * 0.25;
  }
  dx[id] = v;
}
