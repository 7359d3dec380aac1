#version 450
// Elementwise normalization with finished statistics: y = γ·((x − K) − mean)·rstd + β
// (RMS: y = γ·x·rstd). Used after norm_merge.comp and for BatchNorm in eval mode, where
// the statistics are the running ones. Each invocation handles VPT elements.
#include "norm_common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VPT = 4;
layout(constant_id = 2) const bool RMS = false;

void main() {
    uint start = linear_workgroup() * gl_WorkGroupSize.x * VPT + gl_LocalInvocationID.x;
    for (uint j = 0u; j < VPT; ++j) {
        uint i = start + j * gl_WorkGroupSize.x;
        if (i >= pc.numel) return;
        vec4 st = STATS[stat_of(i)];
        float x = X[i];
        float xhat = RMS ? x * st.w : ((x - st.x) - st.y) * st.w;
        Y[i] = affine(xhat, i);
    }
}
