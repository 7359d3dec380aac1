// Gradients of L = Σ dy ⊙ y for every method: the float64 CPU reference, by explicit loops, of
// what a backend's backward fills (GradResult, normlab/core/grad.hpp). With g = dy·γ and
// x̂ = (x − μ)·rstd (RMS: x·rstd), per statistic:
//   ∂L/∂x = rstd·(g − mean(g) − x̂·mean(g·x̂))   (RMS: rstd·(g − x̂·mean(g·x̂)))
//   BatchNorm eval (running statistics are constants): ∂L/∂x = rstd·g
//   ∂L/∂γ[p] = Σ dy·x̂ and ∂L/∂β[p] = Σ dy over the elements whose γ/β index is p.
#pragma once
#include "normlab/core/grad.hpp"
#include "normlab/reference/reference.hpp"

#include <cstdint>
#include <vector>

namespace normlab::reference {

struct GradReference {
    std::vector<double> dx, dweight, dbias;  // dweight/dbias empty as in GradResult
};

// The float64 backward of the forward that `ref` describes, for the upstream gradient dy.
GradReference reference_backward(const Reference& ref, const core::Tensor& dy);

// Max |GPU − reference| over dx, dγ and dβ (NaN-aware like max_abs_error).
double grad_max_abs_error(const core::GradResult& gpu, const GradReference& ref);

}  // namespace normlab::reference
