#include "normlab/cpu/cpu_sync_bn.hpp"

#include <cmath>

namespace normlab::cpu {

std::vector<float> CpuSyncBatchNorm::all_reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C,
                                                double eps, double& /*gpu_ms: no GPU*/) {
    std::vector<float> out(static_cast<std::size_t>(C) * 8, 0.0f);
    const float e = static_cast<float>(eps);
    const auto at = [&](std::int64_t k, std::int64_t c) { return &shards[static_cast<std::size_t>(k * C + c) * 4]; };
    for (std::int64_t c = 0; c < C; ++c) {
        const float* s0 = at(0, c);
        float n = s0[0], mean = s0[1], m2 = s0[2] * s0[0], sum_mean = s0[1], sum_var = s0[2];
        for (std::int64_t k = 1; k < K; ++k) {
            const float* s = at(k, c);
            const float nb = s[0], total = n + nb, delta = s[1] - mean;
            mean = mean + delta * (nb / total);
            m2 = m2 + s[2] * nb + delta * delta * (n * nb / total);
            n = total;
            sum_mean += s[1];
            sum_var += s[2];
        }
        const float v = m2 / n, kf = static_cast<float>(K), nvar = sum_var / kf;
        float* sync = &out[static_cast<std::size_t>(c) * 4];
        float* naive = &out[static_cast<std::size_t>(C + c) * 4];
        sync[0] = mean, sync[1] = v, sync[2] = 1.0f / std::sqrt(v + e);
        naive[0] = sum_mean / kf, naive[1] = nvar, naive[2] = 1.0f / std::sqrt(nvar + e);
    }
    return out;
}

}  // namespace normlab::cpu
