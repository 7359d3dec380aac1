// SyncBatchNorm: BatchNorm on K simulated devices (spec.sync_devices = K), the batch split
// into K shards of N/K consecutive samples. Each shard's statistics come from the Normalizer's
// statistics kernels run on that shard alone (as each device would); shaders/sync_reduce.comp
// all-reduces the shards' (count, mean, M2) exactly (sync) and by the naive average of means
// and variances (naive); norm_apply.comp then applies each to the whole batch. Every run
// computes y under all three modes (SyncStats) and returns the one spec.sync_mode asks for.
#pragma once
#include "normlab/kernel_cache.hpp"
#include "normlab/normalizer.hpp"

#include <memory>

namespace normlab {

class SyncBatchNorm {
public:
    explicit SyncBatchNorm(Normalizer& normalizer);

    // spec.sync_devices == 0: normalizer.run. Otherwise K + 2 normalizer runs and one reduce
    // dispatch; afterwards the normalizer's x and y buffers hold x and the chosen mode's y.
    // Throws InputError (N not divisible by K, another method, ...).
    NormResult run(const Tensor& x, const NormSpec& spec, const NormParams& params = {},
                   const RunOptions& options = {});

private:
    // The all-reduce: shard (count, mean, var) [K][C] in, sync and naive (mean, var, rstd) [2][C] out.
    std::vector<float> reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C, double eps,
                              double& gpu_ms);

    // What one run collects on the way: the statistics, the rstd of each mode, the GPU time.
    struct Run {
        SyncStats st;
        std::vector<double> local_rstd, sync_rstd, naive_rstd;
        double gpu_ms = 0;
    };
    std::vector<float> shard_statistics(const Tensor& x, const NormSpec& train, const NormParams& affine, Run& run);
    static void unpack(const std::vector<float>& reduced, std::int64_t C, Run& run);
    NormResult apply_modes(const Tensor& x, const NormSpec& spec, const NormParams& affine, Run& run);

    Normalizer* n_;
    KernelCache kernels_;  // sync_reduce.comp
    GpuBuffer shards_, out_;
};

}  // namespace normlab
