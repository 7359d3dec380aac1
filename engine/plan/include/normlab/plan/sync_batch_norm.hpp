// SyncBatchNorm's plan, shared by every backend: BatchNorm on K simulated devices
// (spec.sync_devices = K), the batch split into K shards of N/K consecutive samples. Each shard's
// statistics come from the backend's own forward on that shard alone (as each device would); the
// backend's all-reduce kernel (shaders/sync_reduce.comp, shaders/wgsl/sync_reduce.wgsl) combines
// the shards' (count, mean, var) exactly (sync) and by the naive average of means and variances
// (naive); the backend's forward then applies each to the whole batch as running statistics. Every
// run computes y under all three modes (SyncStats) and returns the one spec.sync_mode asks for.
#pragma once
#include "normlab/plan/compute_backend.hpp"  // RunOptions
#include "normlab/core/norm_params.hpp"

#include <cstdint>
#include <vector>

namespace normlab::plan {

// What a backend gives SyncBN: its single-device forward, its all-reduce kernel, its x and y.
class SyncDevices {
public:
    virtual ~SyncDevices() = default;
    // One forward on the device (no SyncBN): afterwards its x and y are this run's.
    virtual core::NormResult forward(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                                     const RunOptions& options) = 0;
    // The all-reduce on the device: the shards' (count, mean, var, 0) [K][C] in; the sync
    // (mean, var, rstd, 0) [C] then the naive ones [C] out. Adds its GPU time to gpu_ms.
    virtual std::vector<float> all_reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C, double eps,
                                          double& gpu_ms) = 0;
    // Two given tensors of one shape as the device's x and y.
    virtual void load_values(const core::Tensor& x, const core::Tensor& y) = 0;
};

// spec.sync_devices == 0: devices.forward. Otherwise K + 2 forwards and one all-reduce;
// afterwards the device's x and y hold x and the chosen mode's y. Throws InputError (N not
// divisible by K, another method, bad parameters) before anything runs.
core::NormResult run_sync_batch_norm(SyncDevices& devices, const core::Tensor& x, const core::NormSpec& spec,
                                     const core::NormParams& params = {}, const RunOptions& options = {});

// SyncBN on one backend's normalizer N (its run and load_values are the devices' forward, x and y);
// the backend's class adds its all-reduce kernel (all_reduce).
template <class N>
class SyncBatchNormOn : private SyncDevices {
public:
    // spec.sync_devices == 0: normalizer.run. Otherwise K + 2 normalizer runs and one all-reduce
    // dispatch; afterwards the normalizer's x and y hold x and the chosen mode's y.
    core::NormResult run(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params = {},
                         const RunOptions& options = {}) {
        return run_sync_batch_norm(*this, x, spec, params, options);
    }

protected:
    explicit SyncBatchNormOn(N& normalizer) : n_(&normalizer) {}
    N* n_;

private:
    core::NormResult forward(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                             const RunOptions& options) override {
        return n_->run(x, spec, params, options);
    }
    void load_values(const core::Tensor& x, const core::Tensor& y) override { n_->load_values(x, y); }
};

}  // namespace normlab::plan
