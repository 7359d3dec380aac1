// NormParams: the tensors a normalization takes besides x (γ, β, running statistics), and
// NormResult: everything one run produces (y, per-statistic values, updated running stats).
#pragma once
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/tensor.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace normlab::core {

struct NormParams {
    std::vector<float> weight;        // γ, layout.param_shape; empty: ones
    std::vector<float> bias;          // β, layout.param_shape; empty: zeros
    std::vector<float> running_mean;  // batch: [C]; empty: zeros
    std::vector<float> running_var;   // batch: [C]; empty: ones
    std::int64_t num_batches_tracked = 0;

    // Throws InputError when a given tensor does not have the shape the layout asks for.
    void validate(const NormSpec& spec, const StatLayout& layout) const;
};

// SyncBN on K simulated devices (spec.sync_devices = K): the shards' own statistics and what
// each of the three modes makes of them, all from the GPU (or, in the reference, float64).
struct SyncStats {
    std::int64_t devices = 0;                     // K
    SyncMode mode = SyncMode::Sync;               // the mode applied to y and to NormResult's mean/var
    std::int64_t shard_count = 0;                 // elements per shard statistic: (N/K)·H·W
    std::vector<double> shard_mean;               // [K][C] flat, row-major
    std::vector<double> shard_var;                // [K][C] flat, biased
    std::vector<double> sync_mean;                // [C]: the exact all-reduce (= BatchNorm over the batch)
    std::vector<double> sync_var;                 // [C], biased
    std::vector<double> naive_mean;               // [C]: mean of the shard means
    std::vector<double> naive_var;                // [C]: mean of the shard variances
    std::vector<float> y_sync, y_local, y_naive;  // y under each mode (empty in the reference)
    bool from_running = false;                    // eval with running statistics: every mode applies those, y is one
};

struct NormResult {
    StatLayout layout;
    Tensor y;                          // output, same shape as x
    std::vector<double> mean;          // per statistic (not rms): μ used for normalizing
    std::vector<double> var;           // per statistic (not rms): biased σ² used for normalizing
    std::vector<double> mean_square;   // rms only: mean(x²)
    std::vector<double> rstd;          // 1/sqrt(σ² + ε) (rms: 1/sqrt(mean_square + ε))
    bool stats_from_running = false;   // batch eval with running stats
    bool running_updated = false;      // batch train with track_running_stats
    std::vector<double> running_mean;  // batch: after the update (or as used in eval)
    std::vector<double> running_var;
    std::int64_t num_batches_tracked = 0;
    std::int64_t nonfinite_inputs = 0;  // NaN/±Inf values in x
    double gpu_ms = 0.0;                // timestamp-measured time of the dispatches (0 without timestamps)
    double upload_ms = 0.0;             // wall time: x, γ, β and the statistics' inputs to the device
    double dispatch_ms = 0.0;           // wall time: recording, submitting and waiting for the dispatches
    double readback_ms = 0.0;           // wall time: y and the statistics back to the host
    // SyncBN (spec.sync_devices > 0). mean/var/rstd then hold the statistics applied: [C] for
    // sync and naive, [K][C] (shard k's channel c at k·C + c) for local.
    std::optional<SyncStats> sync;

    // The elements behind each statistic held: the layout's count, or a shard's where SyncBN's
    // local mode applies the K·C shard statistics.
    std::int64_t elements_per_stat() const {
        return sync && sync->mode == SyncMode::Local && !sync->from_running ? sync->shard_count : layout.count();
    }
    // σ² with Bessel's correction (divide by count − 1), what running_var takes; NaN for a
    // statistic of one element.
    double unbiased_var(std::size_t s) const {
        const double n = static_cast<double>(elements_per_stat());
        return n > 1 ? var[s] * n / (n - 1.0) : std::numeric_limits<double>::quiet_NaN();
    }
};

// The statistics as both backends' kernels write them, 4 floats each (shift K, mean of x − K,
// biased variance or mean(x²), rstd), unpacked into r.mean, r.var (or r.mean_square) and r.rstd
// for r.layout.stat_count statistics.
void unpack_stats(NormResult& r, const float* packed, bool rms);

// Running-statistics update of BatchNorm in train mode (PyTorch's rule): the variance fed
// to running_var is the unbiased one; momentum empty means the cumulative average.
void update_running_stats(const NormSpec& spec, const NormParams& params, NormResult& result);

// SyncBN's running statistics, PyTorch's rule on the statistics each mode keeps: sync from the
// global ones (count N·H·W), local from shard 0 (what DDP keeps on rank 0; count (N/K)·H·W),
// naive from the naive ones (taken as the batch's: count N·H·W). Sets result.running_*.
void update_sync_running_stats(const NormSpec& spec, const NormParams& params, NormResult& result);

}  // namespace normlab::core
