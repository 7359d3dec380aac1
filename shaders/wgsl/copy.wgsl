// The browser bench's reference kernel (web/bench): dst = src, the same bytes a normalization
// reads and writes once, in 16-byte (vec4) accesses, 4 per invocation, coalesced across the
// workgroup (as norm_apply.wgsl's 256 × 4 chunks). The grid is 2-D within the device's limit.
struct CopyParams {
  n4 : u32,        // vec4s to copy
  groups_x : u32,  // the grid's width
  pad0 : u32,
  pad1 : u32,
}

@group(0) @binding(0) var<storage, read> src : array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst : array<vec4<f32>>;
@group(0) @binding(2) var<uniform> p : CopyParams;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg : vec3<u32>, @builtin(local_invocation_index) li : u32) {
  let base = (wg.y * p.groups_x + wg.x) * 1024u + li;
  for (var k = 0u; k < 4u; k = k + 1u) {
    let i = base + k * 256u;
    if (i < p.n4) {
      dst[i] = src[i];
    }
  }
}
