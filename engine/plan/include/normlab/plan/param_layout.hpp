// The layout whose groups are the γ/β indices, for the backward's ∂L/∂γ and ∂L/∂β (shared by the
// Vulkan and the WebGPU backward): per channel, N runs of H·W (batch, instance, group); per
// element of normalized_shape, one element in each leading row (layer, rms). Element
// j·segment_len + k of group p belongs to statistic j·seg_mul + p / p_div (no p term when p_div = 0).
#pragma once
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cstdint>

namespace normlab::plan {

struct ParamLayout {
    core::StatLayout layout;
    std::uint32_t seg_mul = 0, p_div = 0;
};

ParamLayout param_layout(const core::StatLayout& L, const core::NormSpec& spec);

}  // namespace normlab::plan
