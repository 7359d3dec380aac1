// AdaIN (adaptive instance normalization): InstanceNorm of the content x, then the style's
// per-channel statistics put back, y = σ_s·(x − μ_x)/√(σ_x² + ε) + μ_s. μ_s and σ_s come from
// the shaders: a backend runs InstanceNorm on the style tensor and its mean and biased variance
// give μ_s and σ_s = √(var_s + ε). The content run is then an affine InstanceNorm with γ = σ_s
// and β = μ_s, so it is checked by the same float64 reference as any other run.
#pragma once
#include "normlab/plan/compute_backend.hpp"

#include <vector>

namespace normlab::plan {

struct StyleStats {
    std::vector<double> mean;   // μ_s per channel
    std::vector<double> var;    // biased var_s per channel
    std::vector<double> stdev;  // σ_s = √(var_s + ε)
};

// The run that measures a style tensor: InstanceNorm with the content spec's ε, no y needed.
core::NormSpec style_run_spec(const core::NormSpec& content_spec);
constexpr RunOptions kStyleRunOptions{.reuse_x = false, .read_y = false};
// The style's statistics from that run's result.
StyleStats style_stats_of(const core::NormResult& style_run, const core::NormSpec& content_spec);
// Runs the style on `backend` (its device's x and y are then the style's: run it before the content).
StyleStats style_statistics(ComputeBackend& backend, const core::Tensor& style, const core::NormSpec& spec);

// The content run's spec and params: `spec` made affine, γ = σ_s and β = μ_s (float32).
void apply_style(const StyleStats& s, core::NormSpec& spec, core::NormParams& params);

}  // namespace normlab::plan
