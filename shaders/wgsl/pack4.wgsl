// 16-byte element access for the normalization kernels (norm_stats.wgsl, norm_apply.wgsl): X
// and Y hold vec4<f32>, for layouts whose runs are whole vec4s (normlab/core/vec4_runs.hpp). The host
// puts this or pack1.wgsl in front of norm_common.wgsl.
const PACK: u32 = 4u;
alias XE = vec4<f32>;
const PACK_MASK = vec4<f32>(1.0, 1.0, 1.0, 1.0);  // 1 in the live components
fn xe_to4(x: XE) -> vec4<f32> { return x; }
fn xe_from4(v: vec4<f32>) -> XE { return v; }
