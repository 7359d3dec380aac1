// GradResult: the gradients of L = Σ dy ⊙ y that a backend's backward fills (∂L/∂x, ∂L/∂γ, ∂L/∂β
// and the per-statistic means the formula panel shows), and the grad-output shape check. The
// float64 reference of the same gradients is normlab/reference/grad_reference.hpp.
#pragma once
#include "normlab/core/shape.hpp"
#include "normlab/core/tensor.hpp"

#include <cstdint>
#include <vector>

namespace normlab::core {

struct GradResult {
    Tensor dx;                       // ∂L/∂x, the input's shape (empty when not read back)
    std::vector<double> dweight;     // ∂L/∂γ, param_shape; empty when the method has no weight
    std::vector<double> dbias;       // ∂L/∂β, param_shape; empty when the method has no bias
    std::vector<double> mean_g;      // per statistic: mean(dy·γ) (RMS: unused, 0; empty in BatchNorm eval)
    std::vector<double> mean_gxhat;  // per statistic: mean(dy·γ·x̂) (empty in BatchNorm eval)
    double gpu_ms = 0.0;             // timestamp-measured time of the backward dispatches
    double upload_ms = 0.0, dispatch_ms = 0.0, readback_ms = 0.0;
};

// Throws InputError("--grad-output has shape [..], the input has shape [..]") on a mismatch.
void check_grad_shape(const Shape4& input, const std::vector<std::int64_t>& grad_dims);

}  // namespace normlab::core
