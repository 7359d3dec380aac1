// Histogram of one set of elements of a tensor, the WGSL twin of shaders/histogram.comp (the same
// set, passes, partials and result block; engine/core/histogram_set.hpp): the whole tensor, or the
// elements of one StatLayout statistic (`segments` runs of `segment_len` values, `segment_stride`
// apart, from `base`). The host puts PASS and DIFF in front of this text:
//   PASS 0: workgroup w reduces elements [w·chunk_len, (w+1)·chunk_len): count, mean of x−K,
//           M2 = Σ(x−K−mean)² (two passes over the chunk, K = the set's first value), min, max;
//   PASS 1: one invocation merges the partials with Chan's formula into RES;
//   PASS 2: counts every value into `bins` equal bins over [min, max] of RES.
// Non-finite values (NaN, ±Inf, found by their bits) are skipped by all three passes.
// DIFF: the values are X − XB (e.g. y − x) instead of X. The host appends workgroup_sum.wgsl.

// normlab/core/histogram_set.hpp's HistogramParams (plan_histogram fills it for both backends).
struct Hist {
    base: u32,
    segments: u32,
    segment_len: u32,
    segment_stride: u32,
    count: u32,      // elements in the set
    chunk_len: u32,  // elements per workgroup (PASS 0 and 2)
    chunks: u32,     // workgroups (PASS 0 and 2)
    bins: u32,       // 1..MAX_BINS
    groups_x: u32,   // dispatch width, to linearize 2-D workgroup ids
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

const WG: u32 = 256u;
const MAX_BINS: u32 = 256u;

@group(0) @binding(0) var<storage, read> X: array<f32>;
// Per chunk: (count, mean of x−K, M2, unused), (min, max, unused, unused).
@group(0) @binding(1) var<storage, read_write> PART: array<vec4<f32>>;
// RES[0] = (count, mean, biased variance, K); RES[1] = (min, max, 0, 0).
@group(0) @binding(2) var<storage, read_write> RES: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> BINS: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read> XB: array<f32>;
@group(0) @binding(5) var<uniform> P: Hist;

var<workgroup> s_min: atomic<u32>;
var<workgroup> s_max: atomic<u32>;
var<workgroup> s_bins: array<atomic<u32>, MAX_BINS>;  // workgroup memory starts zeroed (WebGPU guarantees it)

fn element_offset(e: u32) -> u32 {
    if (P.segments == 1u) { return P.base + e; }
    let j = e / P.segment_len;
    return P.base + j * P.segment_stride + (e - j * P.segment_len);
}

fn value(e: u32) -> f32 {
    let i = element_offset(e);
    if (DIFF) { return X[i] - XB[i]; }
    return X[i];
}

fn finite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }

// Order-preserving float <-> uint, so that atomicMin/atomicMax on uints order floats.
fn ordered(f: f32) -> u32 {
    let u = bitcast<u32>(f);
    if ((u & 0x80000000u) != 0u) { return ~u; }
    return u | 0x80000000u;
}
fn unordered(u: u32) -> f32 {
    if ((u & 0x80000000u) != 0u) { return bitcast<f32>(u & 0x7fffffffu); }
    return bitcast<f32>(~u);
}

fn shift_value() -> f32 {
    if (P.count == 0u) { return 0.0; }
    let k = value(0u);
    if (finite(k)) { return k; }
    return 0.0;
}

fn chunk_stats(wg: u32, lane: u32) {
    let e0 = wg * P.chunk_len;
    let e1 = min(e0 + P.chunk_len, P.count);
    let K = shift_value();
    if (lane == 0u) { atomicStore(&s_min, 0xffffffffu); }  // the sums' barriers order it before the atomics
    var n = 0.0;
    var s = 0.0;
    var lo = 0xffffffffu;  // ordered(min), ordered(max) of this invocation's finite values
    var hi = 0u;
    for (var e = e0 + lane; e < e1; e = e + WG) {
        let v = value(e);
        if (!finite(v)) { continue; }
        n = n + 1.0;
        s = s + (v - K);
        lo = min(lo, ordered(v));
        hi = max(hi, ordered(v));
    }
    let total_n = workgroup_sum(lane, n);
    let total_s = workgroup_sum(lane, s);
    var mean = 0.0;
    if (total_n > 0.0) { mean = total_s / total_n; }
    var m2 = 0.0;
    for (var e = e0 + lane; e < e1; e = e + WG) {
        let v = value(e);
        if (!finite(v)) { continue; }
        let d = v - K - mean;
        m2 = m2 + d * d;
    }
    if (n > 0.0) {
        atomicMin(&s_min, lo);
        atomicMax(&s_max, hi);
    }
    let total_m2 = workgroup_sum(lane, m2);  // its barriers also order the min/max atomics before the reads below
    if (lane == 0u) {
        PART[2u * wg] = vec4<f32>(total_n, mean, total_m2, 0.0);
        PART[2u * wg + 1u] = vec4<f32>(0.0);
        if (total_n > 0.0) {
            PART[2u * wg + 1u] = vec4<f32>(unordered(atomicLoad(&s_min)), unordered(atomicLoad(&s_max)), 0.0, 0.0);
        }
    }
}

fn merge() {
    var n = 0.0;
    var mean = 0.0;
    var m2 = 0.0;
    var lo = 0.0;
    var hi = 0.0;
    for (var c = 0u; c < P.chunks; c = c + 1u) {
        let p = PART[2u * c];
        let q = PART[2u * c + 1u];
        if (p.x <= 0.0) { continue; }
        if (n == 0.0) {
            lo = q.x;
            hi = q.y;
        } else {
            lo = min(lo, q.x);
            hi = max(hi, q.y);
        }
        // Chan et al.: combine (n, mean, M2) of two disjoint sets.
        let nn = n + p.x;
        let delta = p.y - mean;
        mean = mean + delta * p.x / nn;
        m2 = m2 + p.z + delta * delta * n * p.x / nn;
        n = nn;
    }
    let K = shift_value();
    var v = 0.0;
    if (n > 0.0) { v = max(m2 / n, 0.0); }
    RES[0] = vec4<f32>(n, K + mean, v, K);
    RES[1] = vec4<f32>(lo, hi, 0.0, 0.0);
}

fn count_bins(wg: u32, lane: u32) {
    let lo = RES[1].x;
    let hi = RES[1].y;
    var scale = 0.0;
    if (hi > lo) { scale = f32(P.bins) / (hi - lo); }
    let e0 = wg * P.chunk_len;
    let e1 = min(e0 + P.chunk_len, P.count);
    for (var e = e0 + lane; e < e1; e = e + WG) {
        let v = value(e);
        if (!finite(v)) { continue; }
        var b = P.bins / 2u;
        if (hi > lo) { b = u32(clamp(i32((v - lo) * scale), 0, i32(P.bins) - 1)); }
        atomicAdd(&s_bins[b], 1u);
    }
    workgroupBarrier();  // every value is counted in workgroup memory before the bins are flushed
    for (var b = lane; b < P.bins; b = b + WG) {
        let k = atomicLoad(&s_bins[b]);
        if (k != 0u) { atomicAdd(&BINS[b], k); }
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let wg = wid.x + wid.y * P.groups_x;
    if (PASS == 1u) {
        if (wg == 0u && lid.x == 0u) { merge(); }
        return;
    }
    if (wg >= P.chunks) { return; }  // uniform: the same for the whole workgroup
    if (PASS == 0u) {
        chunk_stats(wg, lid.x);
    } else {
        count_bins(wg, lid.x);
    }
}
