// Shared by the WGSL backward kernels (L = Σ dy⊙y), after norm_common.wgsl, as
// shaders/grad_common.glsl: x at 0, ∂L/∂x written through binding 1 (the forward's Y), γ at 2,
// the forward's statistics (K, mean of x−K, var, rstd) at 4, this pass's partials at 5, the
// layout at 6, plus dy and the merged sums. ∂L/∂γ, ∂L/∂β come from the kernels' own partials where
// the plan says so (normlab/core/backward_plan.hpp), as the GLSL kernels': the host's constants
// ONE_GAMMA (grad_fused, grad_looped: one γ per statistic), RUN_GAMMA (grad_looped: GroupNorm's γ per
// channel), ROWS (grad_fused, grad_looped, grad_apply: layer/rms, Σdy and Σdy·x̂ per element over
// blocks of L.gstat_seg_mul statistics, written as PARTIALS[e·L.gstat_p_div + block]), CHUNK_GAMMA
// (grad_reduce, grad_merge: every chunk has one γ) and FROM_STATS (grad_merge: the γ/β sums from the
// statistics' partials).
@group(0) @binding(7) var<storage, read> DY: array<XE>;  // as X: PACK elements per access
// grad_merge.wgsl's output: per statistic (mean g, mean g·x̂, n, 0) for grad_apply.wgsl; per
// γ/β index (Σ dy, Σ dy·x̂, n, 0) = (∂L/∂β, ∂L/∂γ) in the γ/β pass.
@group(0) @binding(8) var<storage, read_write> GRAD: array<vec4<f32>>;

// x̂ of value x under statistic st = (K, mean of x−K, var, rstd); RMS: x·rstd.
fn grad_xhat(x: f32, st: vec4<f32>) -> f32 {
    if (RMS) { return x * st.w; }
    return ((x - st.x) - st.y) * st.w;
}

// γ of element e of statistic s (1 without a weight).
fn grad_gamma(s: u32, e: u32) -> f32 {
    if (L.has_w == 0u) { return 1.0; }
    return w_at(param_index(s, e));
}
