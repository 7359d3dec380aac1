// Gradients of L = Σ dy ⊙ y for every method: the result type the GPU backward fills
// (engine/ops/include/normlab/ops/backward.hpp), the float64 CPU reference by explicit loops, and
// the grad-output shape check. With g = dy·γ and x̂ = (x − μ)·rstd (RMS: x·rstd), per statistic:
//   ∂L/∂x = rstd·(g − mean(g) − x̂·mean(g·x̂))   (RMS: rstd·(g − x̂·mean(g·x̂)))
//   BatchNorm eval (running statistics are constants): ∂L/∂x = rstd·g
//   ∂L/∂γ[p] = Σ dy·x̂ and ∂L/∂β[p] = Σ dy over the elements whose γ/β index is p.
#pragma once
#include "normlab/core/reference.hpp"

#include <cstdint>
#include <vector>

namespace normlab {

struct GradResult {
    Tensor dx;                       // ∂L/∂x, the input's shape (empty when not read back)
    std::vector<double> dweight;     // ∂L/∂γ, param_shape; empty when the method has no weight
    std::vector<double> dbias;       // ∂L/∂β, param_shape; empty when the method has no bias
    std::vector<double> mean_g;      // per statistic: mean(dy·γ) (RMS: unused, 0; empty in BatchNorm eval)
    std::vector<double> mean_gxhat;  // per statistic: mean(dy·γ·x̂) (empty in BatchNorm eval)
    double gpu_ms = 0.0;             // timestamp-measured time of the backward dispatches
    double upload_ms = 0.0, dispatch_ms = 0.0, readback_ms = 0.0;
};

struct GradReference {
    std::vector<double> dx, dweight, dbias;  // dweight/dbias empty as in GradResult
};

// Throws InputError("--grad-output has shape [..], the input has shape [..]") on a mismatch.
void check_grad_shape(const Shape4& input, const std::vector<std::int64_t>& grad_dims);

// The float64 backward of the forward that `ref` describes, for the upstream gradient dy.
GradReference reference_backward(const Reference& ref, const Tensor& dy);

// Max |GPU − reference| over dx, dγ and dβ (NaN-aware like max_abs_error).
double grad_max_abs_error(const GradResult& gpu, const GradReference& ref);

}  // namespace normlab
