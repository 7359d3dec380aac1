// Split statistics kernel (after norm_common.wgsl), for statistics longer than one workgroup
// holds in registers: workgroup o owns chunk (o % chunks) of statistic (o / chunks) and writes
// its partial (n, mean of x−K, M2 = Σ(x−K−mean)², non-finite flags) for norm_merge.wgsl. Each
// invocation walks up to VPT accesses of PACK elements, strided by WG·PACK (a workgroup's loads
// are contiguous), with Welford's update per component (stable; x read once, nothing kept),
// then its components and the workgroup's invocations are merged with Chan's formula (chan) in
// two levels, two barriers (on CPU-emulated adapters every barrier switches all invocations).
// K is the statistic's first element (STATS[s].x, written by the host). RMS: no shift; the
// partial's mean is the mean square (its M2 stays 0).

const MERGE_FAN: u32 = 16u;  // WG is a power of two of at least 16
var<workgroup> flags: atomic<u32>;  // workgroup memory starts zeroed (WebGPU guarantees it)
var<workgroup> lane_parts: array<vec4<f32>, WG>;
var<workgroup> row_parts: array<vec4<f32>, WG / MERGE_FAN>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let owner = linear_workgroup(wid);
    if (owner >= L.stat_count * L.chunks) { return; }  // uniform: the same for the whole workgroup
    let lane = lid.x;
    let c = chunk_of(owner);
    let base = c.s * L.stat_stride;
    var K = 0.0;
    if (!RMS) { K = STATS[c.s].x; }

    var cnt = 0.0;  // accesses so far: each component has seen cnt values
    var mean = vec4<f32>(0.0);
    var m2 = vec4<f32>(0.0);
    var bad = 0u;
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = c.e0 + (j * WG + lane) * PACK;
        if (e >= c.e1) { break; }
        let x = xe_to4(X[element_offset(base, e) / PACK]);
        bad = bad | nonfinite_flags4(x);
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
    if (bad != 0u) { atomicOr(&flags, bad); }

    lane_parts[lane] = t;
    workgroupBarrier();  // every invocation's part and flags stored before the rows merge them
    const ROWS = WG / MERGE_FAN;
    if (lane < ROWS) {
        var row = vec4<f32>(0.0);
        for (var k = 0u; k < MERGE_FAN; k = k + 1u) { row = chan(row, lane_parts[k * ROWS + lane]); }
        row_parts[lane] = row;
    }
    workgroupBarrier();  // the rows merged before invocation 0 merges them
    if (lane == 0u) {
        var m = vec4<f32>(0.0);
        for (var k = 0u; k < ROWS; k = k + 1u) { m = chan(m, row_parts[k]); }
        PARTIALS[owner] = vec4<f32>(m.x, m.y, m.z, f32(atomicLoad(&flags)));
    }
}
