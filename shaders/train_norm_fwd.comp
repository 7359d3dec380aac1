#version 450
// Training: a norm's forward over one set per workgroup (train_norm_layout.hpp): mean and biased
// variance in two passes (rms: mean 0, mean of squares), rstd = 1/√(var + eps), xhat = (x − mean)·rstd,
// Y = xhat·γ[c] (+ β[c]). Flags (train_plan.hpp): 2 normalise with the running statistics instead
// (BatchNorm in eval); 4 update them (running = (1 − momentum)·running + momentum·stat, the variance
// unbiased: ·M/(M − 1)). STATS[2s] = mean, STATS[2s + 1] = rstd. Flag 16 (small sets): one invocation per
// set, looping over its members (no shared memory, no barriers), 64 sets per workgroup. Flags >> 5: the
// activation that follows the norm, fused (train_act_common.glsl's act, 0 none): Y = f(xhat·γ[c] + β[c]).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint sets; uint members; uint set_inner; uint set_outer_stride; uint set_inner_stride;
    uint member_inner; uint member_outer_stride; uint member_inner_stride; uint channels; uint channel_stride;
    uint flags; float eps; float momentum;
} pc;
#include "train_norm_common.glsl"
layout(std430, binding = 0) readonly buffer Zb { float Z[]; };  // the input
layout(std430, binding = 1) writeonly buffer Yb { float Y[]; };
layout(std430, binding = 2) writeonly buffer XHb { float XHAT[]; };
layout(std430, binding = 3) writeonly buffer Sb { float STATS[]; };
layout(std430, binding = 4) readonly buffer Gb { float GAMMA[]; };
layout(std430, binding = 5) readonly buffer Bb { float BETA[]; };
layout(std430, binding = 6) buffer RMb { float RMEAN[]; };
layout(std430, binding = 7) buffer RVb { float RVAR[]; };
#include "train_act_common.glsl"
#include "train_norm_set.glsl"
shared float s_sum[64];

float set_sum(float v) {
    uint t = gl_LocalInvocationID.x;
    s_sum[t] = v;
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1u) {
        if (t < s) s_sum[t] += s_sum[t + s];
        barrier();
    }
    float r = s_sum[0];
    barrier();
    return r;
}

void main() {
    bool serial = (pc.flags & 16u) != 0u;
    uint s = serial ? gl_GlobalInvocationID.x : gl_WorkGroupID.x;
    uint t = serial ? 0u : gl_LocalInvocationID.x, stride = serial ? 1u : 64u;
    if (serial && s >= pc.sets) return;
    bool rms = (pc.flags & 1u) != 0u;
    float M = float(pc.members);
    float acc = rms ? 0.0 : norm_part_sum(s, t, stride);
    float mean = rms ? 0.0 : (serial ? acc : set_sum(acc)) / M;
    acc = norm_part_squares(s, t, stride, mean);
    float var = (serial ? acc : set_sum(acc)) / M;
    if ((pc.flags & 2u) != 0u) {
        mean = RMEAN[s];
        var = RVAR[s];
    } else if ((pc.flags & 4u) != 0u && t == 0u) {
        RMEAN[s] = (1.0 - pc.momentum) * RMEAN[s] + pc.momentum * mean;
        RVAR[s] = (1.0 - pc.momentum) * RVAR[s] + pc.momentum * var * M / max(M - 1.0, 1.0);
    }
    float rstd = inversesqrt(var + pc.eps);
    if (t == 0u) {
        STATS[2u * s] = mean;
        STATS[2u * s + 1u] = rstd;
    }
    norm_write(s, t, stride, mean, rstd, pc.flags >> 5u);
}
