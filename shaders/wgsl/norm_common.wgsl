// Shared by the WGSL normalization kernels (the browser's WebGPU backend, engine/webgpu): the
// uniform block that carries a StatLayout (engine/core/include/normlab/core/stat_layout.hpp), the
// bindings and the layout functions. The same model as shaders/norm_common.glsl:
//   statistic s covers element e at  s*stat_stride + (e/segment_len)*segment_stride + e%segment_len,
//   its γ/β index is (s % pstat_mod)*pstat_mul + e/pelem_div (no element term when pelem_div = 0).
// The host puts the kernel's constants (WG, VPT, LANE_SPAN, RMS, FUSED, PARAM_PASS, COLUMNS,
// EVAL; the backward's also ONE_GAMMA, RUN_GAMMA, ROWS, CHUNK_GAMMA, FROM_STATS) and pack1.wgsl or
// pack4.wgsl (PACK elements per access of X and Y) in front of this text.
// Element indices e of one access are multiples of PACK; X[element_offset(base, e) / PACK].
//
// WGSL may assume that no NaN or infinity occurs, so non-finite values are found by their bits
// and a statistic that holds one is written as NaN explicitly (as PyTorch's result is).

struct Layout {
    stat_count: u32,
    count: u32,           // elements per statistic
    segment_len: u32,
    segment_stride: u32,
    stat_stride: u32,
    segmented: u32,       // 1: a statistic spans several runs (batch)
    chunks: u32,          // workgroups per statistic in this pass
    chunk_len: u32,       // elements per chunk
    groups_x: u32,        // dispatch width, to linearize 2-D workgroup ids
    pstat_mod: u32,
    pstat_mul: u32,
    pelem_div: u32,
    has_w: u32,
    has_b: u32,
    eps: f32,
    nan_bits: u32,        // 0x7fc00000: a NaN that no constant expression may hold
    // The backward's γ/β pass (grad_reduce.wgsl): element j·segment_len + k of γ/β index p
    // belongs to statistic j·gstat_seg_mul + p / gstat_p_div (no p term when gstat_p_div = 0).
    gstat_seg_mul: u32,
    gstat_p_div: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<storage, read> X: array<XE>;
@group(0) @binding(1) var<storage, read_write> Y: array<XE>;
// γ and β, 4 per vec4 (the host pads both to whole vec4s): per-element ones are read 16 bytes at
// a time (affine4), single ones through w_at and b_at.
@group(0) @binding(2) var<storage, read> W: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> B: array<vec4<f32>>;
// Per statistic: (shift K, mean of x−K, biased variance or mean square, 1/sqrt(var + eps)).
// K (the statistic's first element) is written by the host before the statistics pass.
@group(0) @binding(4) var<storage, read_write> STATS: array<vec4<f32>>;
// Per (statistic, chunk): (count, mean of x−K, M2 = Σ(x−K−mean)², non-finite flags).
@group(0) @binding(5) var<storage, read_write> PARTIALS: array<vec4<f32>>;
@group(0) @binding(6) var<uniform> L: Layout;

const FLAG_NAN: u32 = 1u;
const FLAG_INF: u32 = 2u;

// The accesses of PACK elements that invocation lane takes in a contiguous run of len elements:
// elements x, x + LANE_SPAN·PACK, … below y. Each LANE_SPAN neighbouring invocations (the host's
// constant, a power of two dividing WG) take neighbouring accesses in one contiguous span of the
// run, the workgroup's WG / LANE_SPAN spans in order. LANE_SPAN = WG: the whole workgroup walks
// the run together (a GPU's coalesced loads); 4 on CPU-emulated adapters: each SIMD group of
// lanes streams through its own span (kCpuLoopedLaneSpan, engine/webgpu's wgpu_normalizer.cpp).
fn lane_span(len: u32, lane: u32) -> vec2<u32> {
    let accesses = (len + PACK - 1u) / PACK;
    let spans = WG / LANE_SPAN;
    let per = ((accesses + spans - 1u) / spans + LANE_SPAN - 1u) / LANE_SPAN * LANE_SPAN;
    let g = lane / LANE_SPAN;
    return vec2<u32>((g * per + lane % LANE_SPAN) * PACK, min(len, (g + 1u) * per * PACK));
}

fn linear_workgroup(wid: vec3<u32>) -> u32 { return wid.x + wid.y * L.groups_x; }

// Statistic s and element range [e0, e1) of chunk `owner` = s·chunks + chunk of this pass.
struct Chunk {
    s: u32,
    e0: u32,
    e1: u32,
}
fn chunk_of(owner: u32) -> Chunk {
    let s = owner / L.chunks;
    let e0 = (owner - s * L.chunks) * L.chunk_len;
    return Chunk(s, e0, min(e0 + L.chunk_len, L.count));
}

fn quiet_nan() -> f32 { return bitcast<f32>(L.nan_bits); }

// 0 for a finite value, FLAG_NAN or FLAG_INF otherwise (by the bits).
fn nonfinite_flag(v: f32) -> u32 {
    let b = bitcast<u32>(v);
    if ((b & 0x7f800000u) != 0x7f800000u) { return 0u; }
    return select(FLAG_INF, FLAG_NAN, (b & 0x007fffffu) != 0u);
}

// Flat offset of element e of the statistic whose first element is at base.
fn element_offset(base: u32, e: u32) -> u32 {
    if (L.segmented == 0u) { return base + e; }
    let j = e / L.segment_len;
    return base + j * L.segment_stride + (e - j * L.segment_len);
}

// The γ/β index of element 0 of statistic s; param_index adds element e's term.
fn param_base(s: u32) -> u32 { return (s % L.pstat_mod) * L.pstat_mul; }
fn param_elem(pbase: u32, e: u32) -> u32 {
    if (L.pelem_div == 0u) { return pbase; }
    if (L.pelem_div == 1u) { return pbase + e; }  // per element (layer, rms): no division
    return pbase + e / L.pelem_div;
}
fn param_index(s: u32, e: u32) -> u32 { return param_elem(param_base(s), e); }
fn w_at(p: u32) -> f32 { return W[p >> 2u][p & 3u]; }
fn b_at(p: u32) -> f32 { return B[p >> 2u][p & 3u]; }

// γ·xhat + β for the PACK elements e, e+1, … of one access: one γ/β index, or (per element)
// 4 consecutive ones from a multiple of 4, as vec4_runs guarantees for PACK 4.
fn affine4(xhat: vec4<f32>, pbase: u32, e: u32) -> vec4<f32> {
    var y = xhat;
    if (L.has_w != 0u || L.has_b != 0u) {
        let p = param_elem(pbase, e);
        if (PACK == 1u || L.pelem_div != 1u) {  // one γ/β for the access
            if (L.has_w != 0u) { y = y * w_at(p); }
            if (L.has_b != 0u) { y = y + b_at(p); }
        } else {  // per element: W[p / 4] holds γ of p … p + 3
            if (L.has_w != 0u) { y = y * W[p >> 2u]; }
            if (L.has_b != 0u) { y = y + B[p >> 2u]; }
        }
    }
    return y;
}

// Chan's parallel formula: n = na + nb, δ = mb − ma, mean = ma + δ·nb/n,
// M2 = M2a + M2b + δ²·na·nb/n (RMS: the count-weighted mean of the mean squares, the same mean
// formula). // (n, mean, M2, flags) of a ∪ b.
fn chan(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    let fl = f32(u32(a.w) | u32(b.w));
    if (b.x == 0.0) { return vec4<f32>(a.xyz, fl); }
    let n = a.x + b.x;
    let delta = b.y - a.y;
    let mean = a.y + delta * (b.x / n);
    var m2 = 0.0;
    if (!RMS) { m2 = a.z + b.z + delta * delta * (a.x * b.x / n); }
    return vec4<f32>(n, mean, m2, fl);
}

// The statistic (K, mean, var, rstd) from its (count, mean, M2) and non-finite flags:
// a NaN anywhere (or any non-finite value outside RMS) makes every number NaN, as in float64;
// RMS with infinities only: mean square +inf, rstd 0. The variance is clamped at 0.
fn finish_stat(K: f32, n: f32, mean: f32, m2: f32, flags: u32) -> vec4<f32> {
    if ((flags & FLAG_NAN) != 0u || (!RMS && flags != 0u)) {
        let q = quiet_nan();
        return vec4<f32>(K, q, q, q);
    }
    if (RMS && flags != 0u) { return vec4<f32>(0.0, 0.0, bitcast<f32>(L.nan_bits & 0xff800000u), 0.0); }  // +inf
    var v = mean;  // RMS: the mean square
    if (!RMS) { v = m2 / n; }
    v = max(v, 0.0);
    let rstd = 1.0 / sqrt(v + L.eps);
    if (RMS) { return vec4<f32>(0.0, 0.0, v, rstd); }
    return vec4<f32>(K, mean, v, rstd);
}

// Per component: v is an infinity or a NaN (by the bits).
fn nonfinite4(v: vec4<f32>) -> vec4<bool> {
    return (bitcast<vec4<u32>>(v) & vec4<u32>(0x7f800000u)) == vec4<u32>(0x7f800000u);
}

// |v|'s bits per component: their maximum over a range tells its non-finite values apart
// (flags_of_max_bits) with one and and one max per access, no branch. The components past PACK
// are 0 (xe_to4).
fn abs_bits4(v: vec4<f32>) -> vec4<u32> { return bitcast<vec4<u32>>(v) & vec4<u32>(0x7fffffffu); }
// FLAG_NAN when the largest |x| bits are a NaN's, FLAG_INF when an infinity's, else 0.
fn flags_of_max_bits(m: vec4<u32>) -> u32 {
    let top = max(max(m.x, m.y), max(m.z, m.w));
    return select(select(0u, FLAG_INF, top == 0x7f800000u), FLAG_NAN, top > 0x7f800000u);
}

// y of the PACK elements from e: xs = x − K (RMS: x), st = their statistic, pbase = its
// param_base. NaN where the statistic is not finite, or where x is not finite and rstd is 0.
fn normalized4(xs: vec4<f32>, x: vec4<f32>, st: vec4<f32>, pbase: u32, e: u32) -> vec4<f32> {
    var xhat = xs * st.w;
    if (!RMS) { xhat = (xs - st.y) * st.w; }
    let y = affine4(xhat, pbase, e);
    if (st.w != 0.0 && nonfinite_flag(st.w) == 0u) { return y; }  // uniform: no NaN to select
    let nan = (nonfinite4(x) & vec4<bool>(st.w == 0.0)) | vec4<bool>(nonfinite_flag(st.w) != 0u);
    return select(y, vec4<f32>(quiet_nan()), nan);
}

// Y of the access at element e of the statistic at base, from its finished statistic st
// (K, mean, var, rstd) and param_base pbase: norm_apply.wgsl and norm_looped.wgsl.
fn write_y(base: u32, e: u32, st: vec4<f32>, pbase: u32) {
    let i = element_offset(base, e) / PACK;
    let x = xe_to4(X[i]);
    var xs = x;
    if (!RMS) { xs = x - st.x; }
    Y[i] = xe_from4(normalized4(xs, x, st, pbase, e));
}
