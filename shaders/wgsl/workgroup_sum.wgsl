// The workgroup's sum of one f32 per invocation, shared by norm_stats.wgsl and histogram.wgsl:
// the host appends this file to theirs. Needs the kernel's workgroup size WG (a power of two, at
// least SUM_FAN), which WGSL lets any module-scope line declare. Two levels (WG/SUM_FAN rows of
// SUM_FAN values, then the row sums) and so two barriers per sum: on CPU-emulated adapters
// (SwiftShader) every barrier switches all of the workgroup's invocations, so a log2(WG)-level
// tree cost several times more.

const SUM_FAN: u32 = 16u;
var<workgroup> sum_values: array<f32, WG>;
var<workgroup> sum_rows: array<f32, WG / SUM_FAN>;

// The workgroup's sum; every invocation gets it. Called in uniform control flow only. A second
// call may follow at once: its first writes (sum_values) come after this call's last reads of
// sum_values (before the second barrier), and its sum_rows writes after its own first barrier,
// which every invocation reaches only when it has read this call's sum_rows.
fn workgroup_sum(lane: u32, x: f32) -> f32 {
    sum_values[lane] = x;
    workgroupBarrier();  // all values stored before the rows are summed
    const ROWS = WG / SUM_FAN;
    if (lane < ROWS) {
        var t = 0.0;
        for (var k = 0u; k < SUM_FAN; k = k + 1u) { t = t + sum_values[k * ROWS + lane]; }
        sum_rows[lane] = t;
    }
    workgroupBarrier();  // the row sums stored before everyone reads them
    var total = 0.0;
    for (var r = 0u; r < ROWS; r = r + 1u) { total = total + sum_rows[r]; }
    return total;
}
