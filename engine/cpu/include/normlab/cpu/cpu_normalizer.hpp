// CpuNormalizer: runs a NormSpec on a tensor with float32 kernels on the CPU and returns y and every
// statistic as the GPU normalizers do (the same NormResult, so stats_json serves it). It computes what
// the WGSL and GLSL kernels compute, from the same shared inputs (normlab/plan/forward_inputs.hpp:
// the checked layout, γ/β, the shift K per statistic or the running statistics in eval): per
// statistic mean(x − K) and the two-pass M2 = Σ(x − K − mean)² (its terms around μ = K + mean) in float32 (RMS:
// mean(x²)), the statistic (K, mean, var, rstd) finished as the kernels finish it (NaN for a non-finite input, RMS with
// infinities rstd 0), then y = γ·((x − K) − mean)·rstd + β. x and y stay in its buffers between runs (buffers()), where
// the CPU backend's histogram, backward and heatmap fill read them. Tensors of more than max_elements() values are
// refused with the limit named.
#pragma once
#include "normlab/plan/compute_backend.hpp"  // RunOptions
#include "normlab/core/norm_params.hpp"
#include "normlab/cpu/cpu_buffer.hpp"

#include <cstdint>
#include <optional>

namespace normlab::cpu {

// The most elements a CPU backend takes by default: classroom tensors, each recompute (forward,
// histograms, heatmap, float64 check) well under a second in a browser's WebAssembly.
inline constexpr std::int64_t kCpuMaxElements = std::int64_t{1} << 22;

class CpuNormalizer {
public:
    explicit CpuNormalizer(std::int64_t max_elements = kCpuMaxElements) : max_elements_(max_elements) {}

    // Validates everything (InputError with PyTorch's wording), computes, returns y and the statistics.
    core::NormResult run(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params = {},
                         const plan::RunOptions& options = {});
    // Two given tensors of one shape as x and y, without normalizing.
    void load_values(const core::Tensor& x, const core::Tensor& y);
    // Throws InputError naming the limit when a tensor of this shape has more than max_elements().
    void check_capacity(const core::Shape4& shape) const;
    std::int64_t max_elements() const { return max_elements_; }

    // What the last run left (null when there was none) and its buffers: x, γ (padded to the
    // layout's param_count), the statistics (K, mean − K, var, rstd per statistic) and y.
    struct Last {
        core::StatLayout layout;
        core::NormSpec spec;
        bool from_running = false;
    };
    const Last* last_run() const { return last_ ? &*last_ : nullptr; }
    struct Buffers {
        const CpuBuffer &x, &weight, &stats, &y;
    };
    Buffers buffers() const { return {x_, w_, stats_, y_}; }

private:
    // The statistic s from x into stats_ (unless from running statistics), then its y.
    void normalize_stat(const core::StatLayout& l, std::int64_t s, bool rms, float eps, bool from_running,
                        const std::vector<float>& bias);

    std::int64_t max_elements_;
    std::optional<Last> last_;
    std::optional<core::Shape4> x_loaded_;  // the shape of the x now in x_ (reuse_x)
    std::int64_t x_nonfinite_ = 0;
    bool has_w_ = false;  // the last run's spec has γ (in w_)
    CpuBuffer x_, y_, w_, stats_;
};

}  // namespace normlab::cpu
