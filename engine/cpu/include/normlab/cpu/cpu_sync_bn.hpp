// CpuSyncBatchNorm: SyncBN on K simulated devices on the CPU — engine/plan's plan
// (normlab/plan/sync_batch_norm.hpp, shared with the Vulkan and WebGPU backends) on one CpuNormalizer,
// and the all-reduce of the shards' (count, mean, var) as shaders/wgsl/sync_reduce.wgsl computes it in
// float32: exactly with Chan's formula (sync) and as the average of means and variances (naive).
#pragma once
#include "normlab/plan/sync_batch_norm.hpp"
#include "normlab/cpu/cpu_normalizer.hpp"

#include <vector>

namespace normlab::cpu {

class CpuSyncBatchNorm : public plan::SyncBatchNormOn<CpuNormalizer> {
public:
    explicit CpuSyncBatchNorm(CpuNormalizer& normalizer) : plan::SyncBatchNormOn<CpuNormalizer>(normalizer) {}

private:
    std::vector<float> all_reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C, double eps,
                                  double& gpu_ms) override;
};

}  // namespace normlab::cpu
