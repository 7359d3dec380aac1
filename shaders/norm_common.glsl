// Shared by the normalization kernels: the push constants that carry a StatLayout
// (engine/core/include/normlab/core/stat_layout.hpp), the buffer bindings and the layout functions.
//
// Statistic s covers elements e at  s*stat_stride + (e/segment_len)*segment_stride + e%segment_len;
// its γ/β index is (s % pstat_mod) * pstat_mul + e / pelem_div (no element term when pelem_div = 0).
// Divisions by these run-time constants use precomputed magic numbers (Granlund–Montgomery):
// the software device runs integer division element by element, which would dominate.

// Layout choices as specialization constants (ids 10–13, shared by every normalization kernel),
// so each pipeline holds only the code its layout needs: the software device executes both
// sides of a branch on a push constant.
layout(constant_id = 10) const bool SEGMENTED = false;  // batch: a statistic spans N runs
// γ/β: 0 per statistic, 1 per element, 2 per element / pelem_div
layout(constant_id = 11) const uint PARAM_MODE = 0u;
layout(constant_id = 12) const bool HAS_W = false;
layout(constant_id = 13) const bool HAS_B = false;

// One dispatch covers one slab (engine/core/include/normlab/core/slab_plan.hpp): statistics
// [stat_lo, stat_lo + slab_stats) over their elements [e_lo, e_hi), with x and y bound as a
// window that starts at flat element flat_base (tensors beyond one binding's range).
layout(push_constant) uniform Push {
    uint stat_lo;       // first statistic of the slab (global index)
    uint slab_stats;    // statistics in the slab
    uint segment_len;
    uint segment_stride;
    uint stat_stride;
    uint e_lo, e_hi;    // element range of each statistic in the slab
    uint flat_base;     // flat offset of the bound window's first element
    uint chunks;        // chunks per statistic in the slab
    uint chunk_len;     // elements per chunk
    uint chunk_base;    // the slab's first chunk among a statistic's partials
    uint chunks_total;  // partials per statistic
    uint groups_x;      // dispatch width, to linearize 2-D workgroup ids
    uint seg_magic, seg_s1, seg_s2;   // e / segment_len
    uint pstat_mod, pstat_mul;        // γ/β: statistic part
    uint pelem_div, pe_magic, pe_s1, pe_s2;  // γ/β: element part, e / pelem_div
    float eps;
    // Backward's γ/β pass (grad_reduce.comp): element j·segment_len + k of γ/β index p belongs
    // to statistic j·gstat_seg_mul + p / gstat_p_div (no p term when gstat_p_div = 0).
    uint gstat_seg_mul, gstat_p_div;
} pc;


layout(std430, binding = 0) readonly buffer XBuf { float X[]; };
layout(std430, binding = 1) writeonly buffer YBuf { float Y[]; };
layout(std430, binding = 2) readonly buffer WBuf { float W[]; };
layout(std430, binding = 3) readonly buffer BBuf { float B[]; };
// The same buffers seen as vec4s, for layouts whose runs are multiples of 4 (VEC4 kernels):
// one 16-byte access instead of four, which the software device rewards most.
layout(std430, binding = 0) readonly buffer XBuf4 { vec4 X4[]; };
layout(std430, binding = 1) writeonly buffer YBuf4 { vec4 Y4[]; };
layout(std430, binding = 2) readonly buffer WBuf4 { vec4 W4[]; };
layout(std430, binding = 3) readonly buffer BBuf4 { vec4 B4[]; };
// Per statistic: (shift K, mean of x−K, biased variance or mean square, 1/sqrt(var + eps)).
// K (the statistic's first element) is written by the host before the statistics pass.
layout(std430, binding = 4) buffer StatBuf { vec4 STATS[]; };
// Per (statistic, chunk): (count, mean of x−K, M2 = Σ(x−K−mean)², unused).
layout(std430, binding = 5) buffer PartialBuf { vec4 PARTIALS[]; };

uint linear_workgroup() { return gl_WorkGroupID.x + gl_WorkGroupID.y * pc.groups_x; }

// n / d for the divisor whose magic numbers are (m, s1, s2); exact for every 32-bit n.
uint udiv(uint n, uint m, uint s1, uint s2) {
    uint hi, lo;
    umulExtended(n, m, hi, lo);
    return (hi + ((n - hi) >> s1)) >> s2;
}

// Offset in the bound window of element e of the statistic whose window-relative start is
// base = s·stat_stride − flat_base (uint arithmetic wraps, the sum lands inside the window).
uint element_offset(uint base, uint e) {
    if (!SEGMENTED) return base + e;
    uint j = udiv(e, pc.seg_magic, pc.seg_s1, pc.seg_s2);
    return base + j * pc.segment_stride + (e - j * pc.segment_len);
}

// γ/β index of element e of a statistic whose parameter base is (s % pstat_mod) * pstat_mul.
uint param_index(uint pbase, uint e) {
    if (PARAM_MODE == 0u) return pbase;
    if (PARAM_MODE == 1u) return pbase + e;
    return pbase + udiv(e, pc.pe_magic, pc.pe_s1, pc.pe_s2);
}

uint param_base(uint s) { return (s % pc.pstat_mod) * pc.pstat_mul; }

// γ/β for a pack of 4 consecutive elements starting at element e (a multiple of 4) of a
// statistic, or for one element (width 1, in .x). With per-element parameters the pack's
// 4 parameters are consecutive; otherwise all 4 elements share one (VEC4 layouts guarantee it).
vec4 affine(vec4 xhat, uint pbase, uint e, bool pack4) {
    if (PARAM_MODE == 0u || (!HAS_W && !HAS_B)) return xhat;  // per statistic: see stat_affine
    if (pack4 && PARAM_MODE == 1u) {
        uint p = (pbase + e) >> 2;
        if (HAS_W) xhat *= W4[p];
        if (HAS_B) xhat += B4[p];
    } else {
        uint p = param_index(pbase, e);
        if (HAS_W) xhat *= W[p];
        if (HAS_B) xhat += B[p];
    }
    return xhat;
}

// Per-statistic γ/β (PARAM_MODE 0), loaded once: returns (γ, β) (ones/zeros when absent).
vec2 stat_affine(uint pbase) {
    if (PARAM_MODE != 0u) return vec2(1.0, 0.0);
    return vec2(HAS_W ? W[pbase] : 1.0, HAS_B ? B[pbase] : 0.0);
}

// (n, mean, M2) of the union of two parts with Chan's parallel formula (RMS: the count-weighted
// average of the mean squares, no M2): norm_merge.comp and norm_stats.comp's LOOPED owners.
vec3 chan_merge(vec3 a, vec3 b, bool rms) {
    if (b.x == 0.0) return a;
    float n = a.x + b.x;
    float delta = b.y - a.y;
    float mean = a.y + delta * (b.x / n);
    float m2 = rms ? 0.0 : a.z + b.z + delta * delta * (a.x * b.x / n);
    return vec3(n, mean, m2);
}
