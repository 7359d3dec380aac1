// What a forward run needs besides x, made the same way for every backend (the Vulkan Normalizer,
// the WebGPU WgpuNormalizer): the run's checked layout, γ and β as the kernels read them, and the
// statistics buffer's first contents.
#pragma once
#include "normlab/core/norm_params.hpp"
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/tensor.hpp"

#include <cstddef>
#include <vector>

namespace normlab::plan {

// The layout of normalizing `x` under `spec` with `params`: InputError (PyTorch's words) when x's
// values do not fill its shape, the spec does not fit it or the parameters do not fit the spec.
core::StatLayout checked_forward_layout(const core::Tensor& x, const core::NormSpec& spec,
                                        const core::NormParams& params);

// γ and β as the kernels read them: only where the spec has them (empty otherwise), γ = 1 and β = 0
// where none were given, each padded with zeros to `padded` values (≥ the layout's param_count).
struct ForwardParams {
    std::vector<float> weight, bias;
};
ForwardParams forward_params(const core::NormSpec& spec, const core::NormParams& params, const core::StatLayout& layout,
                             std::size_t padded);

// The statistics buffer before the statistics pass, 4 floats per statistic: the shift K (each
// statistic's first element; 0 for RMSNorm), or with `from_running` (BatchNorm eval) the running
// mean, 0, the running variance and 1/√(var + ε).
std::vector<float> statistics_inputs(const core::Tensor& x, const core::StatLayout& layout,
                                     const core::NormParams& params, bool from_running, double eps);

}  // namespace normlab::plan
