// The workgroup's sum of one f32 per invocation (a tree in workgroup memory), shared by
// norm_stats.wgsl and histogram.wgsl: the host appends this file to theirs. Needs the kernel's
// workgroup size WG (a power of two), which WGSL lets any module-scope line declare.

var<workgroup> tree: array<f32, WG>;

// The workgroup's sum; every invocation gets it. Called in uniform control flow only.
fn workgroup_sum(lane: u32, x: f32) -> f32 {
    tree[lane] = x;
    workgroupBarrier();  // all values stored before the first level reads them
    for (var stride = WG / 2u; stride > 0u; stride = stride / 2u) {
        if (lane < stride) { tree[lane] = tree[lane] + tree[lane + stride]; }
        workgroupBarrier();  // this level's sums written before the next level reads them
    }
    let total = tree[0];
    workgroupBarrier();  // everyone has read tree[0] before the next sum overwrites it
    return total;
}
