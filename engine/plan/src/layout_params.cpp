#include "normlab/plan/layout_params.hpp"

#include "normlab/plan/backend_helpers.hpp"

namespace normlab::plan {

DivMagic div_magic(std::uint64_t d) {
    if (d == 0) return {};
    std::uint32_t l = 0;
    while ((std::uint64_t{1} << l) < d) ++l;
    DivMagic k;
    k.m = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * ((std::uint64_t{1} << l) - d)) / d + 1);
    k.s1 = l ? 1 : 0;
    k.s2 = l ? l - 1 : 0;
    return k;
}

LayoutParams layout_params(const core::StatLayout& layout, const core::NormSpec& spec) {
    LayoutParams p;
    p.stat_count = u32(layout.stat_count);
    p.count = u32(layout.count());
    p.segment_len = u32(layout.segment_len);
    p.segment_stride = u32(layout.segment_stride);
    p.stat_stride = u32(layout.stat_stride);
    p.segmented = layout.segments > 1;
    p.pstat_mod = u32(layout.param_stat_mod);
    p.pstat_mul = u32(layout.param_stat_mul);
    p.pelem_div = u32(layout.param_elem_div);
    p.param_mode = p.pelem_div == 0 ? 0u : p.pelem_div == 1 ? 1u : 2u;
    p.has_w = spec.has_weight();
    p.has_b = spec.has_bias();
    p.eps = static_cast<float>(spec.effective_eps());
    p.segment_magic = div_magic(static_cast<std::uint64_t>(layout.segment_len));
    p.pelem_magic = div_magic(static_cast<std::uint64_t>(layout.param_elem_div));
    return p;
}

}  // namespace normlab::plan
