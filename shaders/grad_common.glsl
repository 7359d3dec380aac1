// Shared by the backward kernels (L = Σ dy⊙y), on top of norm_common.glsl's bindings: x at 0,
// ∂L/∂x written through binding 1 (the forward's y), γ/β at 2–3, the forward's statistics
// (K, mean of x−K, var, rstd) at 4, this pass's partials at 5, plus dy and the merged sums.
layout(std430, binding = 6) readonly buffer DyBuf { float DY[]; };
layout(std430, binding = 6) readonly buffer DyBuf4 { vec4 DY4[]; };  // VEC4 kernels: 16-byte loads
// grad_merge.comp's output: per statistic (mean g, mean g·x̂) for grad_apply.comp; per γ/β
// index (Σ dy, Σ dy·x̂) = (∂L/∂β, ∂L/∂γ) in the γ/β pass.
layout(std430, binding = 7) buffer GradBuf { vec4 GRAD[]; };

// x̂ of value x under statistic st = (K, mean of x−K, var, rstd); RMS: x·rstd.
float grad_xhat(float x, vec4 st, bool rms) { return rms ? x * st.w : ((x - st.x) - st.y) * st.w; }

// γ of element e of a statistic whose γ/β base is pbase (1 without a weight).
float grad_gamma(uint pbase, uint e) {
    if (!HAS_W) return 1.0;
    return W[param_index(pbase, e)];
}

// γ of the pack of 4 elements starting at element e (a multiple of 4) of a VEC4 layout: per
// element, 4 consecutive γ; otherwise the pack shares one (vec4_layout in normalizer.cpp).
vec4 grad_gamma4(uint pbase, uint e) {
    if (!HAS_W) return vec4(1.0);
    if (PARAM_MODE == 1u) return W4[(pbase + e) >> 2];
    return vec4(W[param_index(pbase, e)]);
}
