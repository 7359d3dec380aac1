// NormParams: the tensors a normalization takes besides x (γ, β, running statistics), and
// NormResult: everything one run produces (y, per-statistic values, updated running stats).
#pragma once
#include "normlab/stat_layout.hpp"
#include "normlab/tensor.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace normlab {

struct NormParams {
    std::vector<float> weight;        // γ, layout.param_shape; empty: ones
    std::vector<float> bias;          // β, layout.param_shape; empty: zeros
    std::vector<float> running_mean;  // batch: [C]; empty: zeros
    std::vector<float> running_var;   // batch: [C]; empty: ones
    std::int64_t num_batches_tracked = 0;

    // Throws InputError when a given tensor does not have the shape the layout asks for.
    void validate(const NormSpec& spec, const StatLayout& layout) const;
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

    // σ² with Bessel's correction (divide by count − 1), what running_var takes; NaN for a
    // statistic of one element.
    double unbiased_var(std::size_t s) const {
        const double n = static_cast<double>(layout.count());
        return n > 1 ? var[s] * n / (n - 1.0) : std::numeric_limits<double>::quiet_NaN();
    }
};

// Running-statistics update of BatchNorm in train mode (PyTorch's rule): the variance fed
// to running_var is the unbiased one; momentum empty means the cumulative average.
void update_running_stats(const NormSpec& spec, const NormParams& params, NormResult& result);

}  // namespace normlab
