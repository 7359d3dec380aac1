// AvgPool2d(2) forward on NCHW float32 (engine/train/pool_plan.hpp), train_pool_avg2_forward.comp's twin: one
// invocation per output element, y[p,i,j] = (x[p,2i,2j] + x[p,2i,2j+1] + x[p,2i+1,2j] + x[p,2i+1,2j+1]) / 4
// over planes p = n·C + c; an odd last row or column is dropped, as PyTorch floors.
struct Push {
  planes : u32,
  h : u32,
  w : u32,
}

@group(0) @binding(0) var<storage, read_write> x : array<f32>;
@group(0) @binding(1) var<storage, read_write> y : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,
        @builtin(local_invocation_index) li : u32) {
  let id = (wid.x + wid.y * nwg.x) * 64u + li;
  let ho = pc.h / 2u;
  let wo = pc.w / 2u;
  if (id >= pc.planes * ho * wo) {
    return;
  }
  let j = id % wo;
  let i = (id / wo) % ho;
  let p = id / (ho * wo);
  let s = p * pc.h * pc.w + 2u * i * pc.w + 2u * j;
  y[id] = ((x[s] + x[s + 1u]) + (x[s + pc.w] + x[s + pc.w + 1u])) * 0.25;
}
