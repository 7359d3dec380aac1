// SyncBatchNorm on Vulkan: SyncBN's plan (normlab/plan/sync_batch_norm.hpp, shared with the WebGPU
// backend) on one Normalizer, whose statistics kernels compute each shard's statistics, and
// shaders/sync_reduce.comp, which all-reduces the shards' (count, mean, var) exactly (sync) and
// naively; norm_apply.comp then applies each mode's statistics to the whole batch. run() throws
// InputError (N not divisible by K, another method, ...) before anything runs.
#pragma once
#include "normlab/gpu/kernel_cache.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/plan/sync_batch_norm.hpp"

namespace normlab::ops {

class SyncBatchNorm : public plan::SyncBatchNormOn<Normalizer> {
public:
    explicit SyncBatchNorm(Normalizer& normalizer);

private:
    // sync_reduce.comp: shard (count, mean, var) [K][C] in, sync and naive (mean, var, rstd) [2][C] out.
    std::vector<float> all_reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C, double eps,
                                  double& gpu_ms) override;

    gpu::KernelCache kernels_;  // sync_reduce.comp
    gpu::GpuBuffer shards_, out_;
};

}  // namespace normlab::ops
