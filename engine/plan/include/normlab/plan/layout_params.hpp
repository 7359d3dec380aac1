// layout_params: the one description of what every normalization kernel reads about a run's
// layout, for both backends' parameter blocks: engine/ops fills the GLSL push constants (`Push`)
// and specialization constants from it, engine/webgpu the WGSL uniform (`LayoutBlock`). The
// blocks keep their own field order (each mirrors its shader's declaration); their content is this.
#pragma once
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cstdint>

namespace normlab::plan {

// Magic numbers for dividing any 32-bit n by d: q = (hi + ((n − hi) >> s1)) >> s2 with
// hi = (m·n) >> 32 (Granlund & Montgomery 1994, Figure 4.1). The GLSL kernels divide with them.
struct DivMagic {
    std::uint32_t m = 1, s1 = 0, s2 = 0;
};
DivMagic div_magic(std::uint64_t d);
// n / d by the magic numbers of d, as the kernels compute it.
inline std::uint32_t magic_divide(std::uint32_t n, DivMagic k) {
    const auto hi = static_cast<std::uint32_t>((std::uint64_t{k.m} * n) >> 32);
    return (hi + ((n - hi) >> k.s1)) >> k.s2;
}

struct LayoutParams {
    std::uint32_t stat_count = 0, count = 0;  // statistics, elements per statistic
    std::uint32_t segment_len = 0, segment_stride = 0, stat_stride = 0;
    bool segmented = false;  // a statistic spans several runs (batch)
    // γ/β index of element e of statistic s: (s % pstat_mod)·pstat_mul + e / pelem_div (no element
    // term when pelem_div = 0); param_mode 0 (one per statistic), 1 (per element), 2 (per run).
    std::uint32_t pstat_mod = 0, pstat_mul = 0, pelem_div = 0, param_mode = 0;
    bool has_w = false, has_b = false;
    float eps = 0.0f;
    DivMagic segment_magic, pelem_magic;  // segment_len's and pelem_div's
};

// The parameters of `layout` under `spec` (ε: spec.effective_eps(); γ/β: spec.has_weight(), has_bias()).
LayoutParams layout_params(const core::StatLayout& layout, const core::NormSpec& spec);

}  // namespace normlab::plan
