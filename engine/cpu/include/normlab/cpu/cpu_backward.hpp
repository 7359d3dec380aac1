// CpuBackward: the gradients of L = Σ dy⊙y on the CPU for the last forward of a CpuNormalizer, as
// the GPU backwards compute them (grad_reduce, grad_merge, grad_apply): per statistic mean(g) and
// mean(g·x̂) with g = dy·γ, then ∂L/∂x = rstd·(g − mean(g) − x̂·mean(g·x̂)) (RMS: no mean(g) term;
// BatchNorm eval: rstd·g), and ∂L/∂γ, ∂L/∂β summed over the groups of engine/plan's ParamLayout
// (each element's x̂ from its own statistic), all in float32 from the forward's own statistics.
#pragma once
#include "normlab/core/grad.hpp"
#include "normlab/cpu/cpu_normalizer.hpp"

namespace normlab::cpu {

class CpuBackward {
public:
    explicit CpuBackward(const CpuNormalizer& n) : n_(&n) {}
    // InputError without a forward run first, or for a dy of another shape.
    core::GradResult run(const core::Tensor& dy);

private:
    const CpuNormalizer* n_;
};

}  // namespace normlab::cpu
