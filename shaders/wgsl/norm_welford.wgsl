// The statistic of a range of one statistic's elements, shared by norm_partial.wgsl (a chunk) and
// norm_looped.wgsl (the whole statistic): the host appends this file to theirs. Needs the
// kernel's workgroup size WG (a power of two of at least MERGE_FAN).
// Each invocation walks its accesses of PACK elements in every contiguous run of the range
// (lane_span in norm_common.wgsl: the workgroup's loads contiguous on a GPU, each SIMD group's
// on a CPU-emulated adapter; runs found once per run, not per access).
// Its first SUM_RUN accesses go through Welford's update (stable whatever the values, a division
// each); after them it sums short runs of SUM_RUN accesses shifted by its mean so far (plain sums
// cost least per access, and a shift near the values keeps Σd² − (Σd)²/n from cancelling), each
// short run merged into its state with Chan's formula, relative to K. Then the components and the
// workgroup's invocations are merged in two levels, two barriers (on CPU-emulated adapters every
// barrier switches all invocations).
// RMS: no shift, plain sums of x² throughout; the mean is the mean square (M2 stays 0).

const MERGE_FAN: u32 = 16u;
const SUM_RUN: u32 = 16u;
var<workgroup> welford_flags: atomic<u32>;  // workgroup memory starts zeroed (WebGPU guarantees it)
var<workgroup> lane_parts: array<vec4<f32>, WG>;
var<workgroup> row_parts: array<vec4<f32>, WG / MERGE_FAN>;

// Sums over one short run, per component: k the shift (RMS: 0), s = Σ(x − k) (RMS: Σx²),
// q = Σ(x − k)², n accesses, top the largest |x| bits (abs_bits4; set by lane_range only when
// the sums are not finite).
struct ShortRun {
    k: vec4<f32>,
    s: vec4<f32>,
    q: vec4<f32>,
    top: vec4<u32>,
    n: f32,
}
// One invocation's state, per component: n values, their mean relative to K (RMS: mean square),
// M2 = Σ(x − K − mean)², the largest |x| bits.
struct LaneStat {
    n: f32,
    mean: vec4<f32>,
    m2: vec4<f32>,
    top: vec4<u32>,
}

// Welford's update of a by the access x (not RMS), the largest |x| bits kept.
fn lane_welford(a: ptr<function, LaneStat>, x: vec4<f32>, K: f32) {
    (*a).top = max((*a).top, abs_bits4(x));
    (*a).n = (*a).n + 1.0;
    let d = x - K;
    let delta = d - (*a).mean;
    (*a).mean = (*a).mean + delta / (*a).n;
    (*a).m2 = (*a).m2 + delta * (d - (*a).mean);
}

// Non-finite values are found from each short run's sums, not from each x. RMS: a NaN makes
// Σx² NaN, an infinity (or a square past float's range, which gives the same statistic, an
// infinite mean square) makes it +inf. Else a NaN or an infinity among the x (or in the shift)
// makes Σ(x − k)² NaN or +inf; only then are the short run's x read again for their |x| bits.
fn short_run_add(r: ptr<function, ShortRun>, x: vec4<f32>) {
    if (RMS) {
        (*r).s = (*r).s + x * x;
    } else {
        let d = x - (*r).k;
        (*r).s = (*r).s + d;
        (*r).q = (*r).q + d * d;
    }
}

// Chan's formula per component: the short run r joins the invocation's state a.
fn lane_add(a: ptr<function, LaneStat>, r: ShortRun, K: f32) {
    var top = r.top;
    if (RMS) { top = abs_bits4(r.s); }
    let n = (*a).n + r.n;
    let ds = r.s / r.n;
    var mean = ds;  // RMS: the short run's mean square
    var m2 = vec4<f32>(0.0);
    if (!RMS) {
        mean = (r.k - K) + ds;
        m2 = max(r.q - r.s * ds, vec4<f32>(0.0));
    }
    let delta = mean - (*a).mean;
    (*a).mean = (*a).mean + delta * (r.n / n);
    if (!RMS) { (*a).m2 = (*a).m2 + m2 + delta * delta * ((*a).n * r.n / n); }
    (*a).n = n;
    (*a).top = max((*a).top, top);
}

const STEP: u32 = LANE_SPAN * PACK;  // elements between an invocation's accesses of one run

// Access t of the short run that starts at element j of the run at flat offset off.
fn run_access(off: u32, j: u32, t: u32) -> vec4<f32> { return xe_to4(X[(off + j + t * STEP) / PACK]); }

// The invocation's accesses of the len contiguous elements from flat offset off: elements j,
// j + STEP, … of its span (lane_span) below end.
fn lane_range(a: ptr<function, LaneStat>, off: u32, len: u32, lane: u32, K: f32) {
    let sp = lane_span(len, lane);
    var j = sp.x;
    let end = sp.y;
    if (!RMS && (*a).n == 0.0) {  // the invocation's first accesses: Welford's update
        for (var t = 0u; t < SUM_RUN && j < end; t = t + 1u) {
            lane_welford(a, run_access(off, j, 0u), K);
            j = j + STEP;
        }
    }
    for (; j < end; j = j + SUM_RUN * STEP) {
        var r = ShortRun(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<u32>(0u), 0.0);
        if (!RMS) { r.k = K + (*a).mean; }  // near the values (any float will do: r.k − K is used)
        let n = min(SUM_RUN, (end - j + STEP - 1u) / STEP);  // the short run's accesses before end
        if (n == SUM_RUN) {  // a whole short run: a loop of constant length
            for (var t = 0u; t < SUM_RUN; t = t + 1u) { short_run_add(&r, run_access(off, j, t)); }
        } else {
            for (var t = 0u; t < n; t = t + 1u) { short_run_add(&r, run_access(off, j, t)); }
        }
        r.n = f32(n);
        if (!RMS && any(abs_bits4(r.q) >= vec4<u32>(0x7f800000u))) {  // rare: no barrier follows here
            for (var t = 0u; t < n; t = t + 1u) { r.top = max(r.top, abs_bits4(run_access(off, j, t))); }
        }
        lane_add(a, r, K);
    }
}

// (n, mean of x−K, M2 = Σ(x−K−mean)², non-finite flags) of elements [e0, e1) of the statistic
// whose first element is at base; every invocation gets it. Called once per kernel, in uniform
// control flow.
fn workgroup_welford(base: u32, K: f32, e0: u32, e1: u32, lane: u32) -> vec4<f32> {
    var a = LaneStat(0.0, vec4<f32>(0.0), vec4<f32>(0.0), vec4<u32>(0u));
    let seg = L.segment_len;  // the statistic's runs (one when it is not segmented)
    for (var r = e0 / seg; r * seg < e1; r = r + 1u) {
        let lo = max(e0, r * seg);
        lane_range(&a, base + r * L.segment_stride + (lo - r * seg), min(e1, r * seg + seg) - lo, lane, K);
    }
    var t = vec4<f32>(a.n, a.mean.x, a.m2.x, 0.0);
    for (var k = 1u; k < PACK; k = k + 1u) { t = chan(t, vec4<f32>(a.n, a.mean[k], a.m2[k], 0.0)); }
    let bad = flags_of_max_bits(a.top);
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
