// WgpuSyncBatchNorm: SyncBN on K simulated devices in the browser — SyncBN's plan
// (normlab/plan/sync_batch_norm.hpp, shared with the Vulkan SyncBatchNorm) on one WgpuNormalizer, whose
// WGSL kernels compute each shard's statistics and apply each mode's, and shaders/wgsl/sync_reduce.wgsl,
// the all-reduce of the shards' (count, mean, var) exactly (sync) and naively.
#pragma once
#include "normlab/plan/sync_batch_norm.hpp"
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <vector>

namespace normlab::webgpu {

class WgpuSyncBatchNorm : public plan::SyncBatchNormOn<WgpuNormalizer> {
public:
    explicit WgpuSyncBatchNorm(WgpuNormalizer& normalizer);
    ~WgpuSyncBatchNorm() override;
    WgpuSyncBatchNorm(const WgpuSyncBatchNorm&) = delete;
    WgpuSyncBatchNorm& operator=(const WgpuSyncBatchNorm&) = delete;

private:
    // sync_reduce.wgsl: shard (count, mean, var) [K][C] in, sync and naive (mean, var, rstd) [2][C] out.
    std::vector<float> all_reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C, double eps,
                                  double& gpu_ms) override;

    WGPUBindGroupLayout bind_layout_ = nullptr;
    WGPUPipelineLayout pipeline_layout_ = nullptr;
    WGPUComputePipeline pipeline_ = nullptr;  // made on the first SyncBN run
    WgpuBuffer shards_, out_, uniform_;
};

}  // namespace normlab::webgpu
