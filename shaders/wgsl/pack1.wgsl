// One float per element access for the normalization kernels (norm_stats.wgsl, norm_apply.wgsl)
// and the backward's: X and Y hold f32. The host puts this or pack4.wgsl in front of
// norm_common.wgsl; the kernels work on vec4<f32> values whose first PACK components are live.
const PACK: u32 = 1u;
alias XE = f32;
const PACK_MASK = vec4<f32>(1.0, 0.0, 0.0, 0.0);  // 1 in the live components
fn xe_to4(x: XE) -> vec4<f32> { return vec4<f32>(x, 0.0, 0.0, 0.0); }
fn xe_from4(v: vec4<f32>) -> XE { return v.x; }
