// Welford's update and Chan's merge over a range of one statistic, shared by norm_partial.wgsl (a
// chunk) and norm_looped.wgsl (the whole statistic): the host appends this file to theirs. Needs
// the kernel's workgroup size WG (a power of two of at least MERGE_FAN). Each invocation walks the
// accesses of PACK elements e0 + lane·PACK, + WG·PACK, … below e1 (a workgroup's loads are
// contiguous) with Welford's update per component (stable; x read once, nothing kept), then its
// components and the workgroup's invocations are merged with Chan's formula (norm_common.wgsl's
// chan) in two levels, two barriers (on CPU-emulated adapters every barrier switches all
// invocations). RMS: no shift; the mean is the mean square (M2 stays 0).

const MERGE_FAN: u32 = 16u;
var<workgroup> welford_flags: atomic<u32>;  // workgroup memory starts zeroed (WebGPU guarantees it)
var<workgroup> lane_parts: array<vec4<f32>, WG>;
var<workgroup> row_parts: array<vec4<f32>, WG / MERGE_FAN>;

// (n, mean of x−K, M2 = Σ(x−K−mean)², non-finite flags) of elements [e0, e1) of the statistic
// whose first element is at base; every invocation gets it. Called once per kernel, in uniform
// control flow.
fn workgroup_welford(base: u32, K: f32, e0: u32, e1: u32, lane: u32) -> vec4<f32> {
    var cnt = 0.0;  // accesses so far: each component has seen cnt values
    var mean = vec4<f32>(0.0);
    var m2 = vec4<f32>(0.0);
    var top = vec4<u32>(0u);  // the largest |x| bits (abs_bits4)
    for (var e = e0 + lane * PACK; e < e1; e = e + WG * PACK) {
        let x = xe_to4(X[element_offset(base, e) / PACK]);
        top = max(top, abs_bits4(x));
        cnt = cnt + 1.0;
        let r = 1.0 / cnt;
        if (RMS) {
            mean = mean + (x * x - mean) * r;
        } else {
            let d = x - K;
            let delta = d - mean;
            mean = mean + delta * r;
            m2 = m2 + delta * (d - mean);
        }
    }
    var t = vec4<f32>(cnt, mean.x, m2.x, 0.0);
    for (var k = 1u; k < PACK; k = k + 1u) { t = chan(t, vec4<f32>(cnt, mean[k], m2[k], 0.0)); }
    let bad = flags_of_max_bits(top);
    if (bad != 0u) { atomicOr(&welford_flags, bad); }

    lane_parts[lane] = t;
    workgroupBarrier();  // every invocation's part and flags stored before the rows merge them
    const ROWS = WG / MERGE_FAN;
    if (lane < ROWS) {
        var row = vec4<f32>(0.0);
        for (var k = 0u; k < MERGE_FAN; k = k + 1u) { row = chan(row, lane_parts[k * ROWS + lane]); }
        row_parts[lane] = row;
    }
    workgroupBarrier();  // the rows merged before every invocation merges them
    var m = vec4<f32>(0.0);
    for (var k = 0u; k < ROWS; k = k + 1u) { m = chan(m, row_parts[k]); }
    return vec4<f32>(m.x, m.y, m.z, f32(atomicLoad(&welford_flags)));
}
