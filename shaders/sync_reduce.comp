#version 450
// SyncBN's all-reduce over K simulated devices, one invocation per channel c. Device k sent
// its shard's (count, mean, biased variance) of channel c; this combines them two ways:
//   sync:  Chan's parallel formula on (n, mean, M2 = var·n), shard after shard:
//          n = na + nb, δ = mb − ma, mean = ma + δ·nb/n, M2 = M2a + M2b + δ²·na·nb/n,
//          var = M2 / n — exactly the whole batch's statistics;
//   naive: mean = Σ mean_k / K, var = Σ var_k / K (the average of the shard variances, which
//          misses the variance of the shard means).
// OUT[c] = sync (mean, var, rstd, 0); OUT[C + c] = naive (mean, var, rstd, 0).
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint devices;   // K
    uint channels;  // C
    float eps;
} pc;

layout(std430, binding = 0) readonly buffer Shards { vec4 SHARD[]; };  // [K][C]: (count, mean, var, 0)
layout(std430, binding = 1) writeonly buffer Out { vec4 OUT[]; };      // [2][C]

void main() {
    const uint c = gl_GlobalInvocationID.x;
    if (c >= pc.channels) return;
    vec4 s0 = SHARD[c];
    float n = s0.x, mean = s0.y, m2 = s0.z * s0.x;
    float sum_mean = s0.y, sum_var = s0.z;
    for (uint k = 1u; k < pc.devices; ++k) {
        const vec4 s = SHARD[k * pc.channels + c];
        const float nb = s.x;
        const float total = n + nb;
        const float delta = s.y - mean;
        mean += delta * (nb / total);
        m2 += s.z * nb + delta * delta * (n * nb / total);
        n = total;
        sum_mean += s.y;
        sum_var += s.z;
    }
    const float var = m2 / n;
    OUT[c] = vec4(mean, var, 1.0 / sqrt(var + pc.eps), 0.0);
    const float k = float(pc.devices);
    const float nvar = sum_var / k;
    OUT[pc.channels + c] = vec4(sum_mean / k, nvar, 1.0 / sqrt(nvar + pc.eps), 0.0);
}
