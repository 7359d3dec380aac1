#include "normlab/plan/param_layout.hpp"

namespace normlab::plan {

ParamLayout param_layout(const core::StatLayout& L, const core::NormSpec& spec) {
    auto u32 = [](std::int64_t v) { return static_cast<std::uint32_t>(v); };
    ParamLayout P;
    P.layout = L;
    core::StatLayout& l = P.layout;
    l.stat_count = L.param_count;
    l.stat_stride = L.param_stride;
    const core::Shape4& s = L.shape;
    if (spec.method == core::Method::Layer || spec.method == core::Method::Rms) {
        l.segments = L.stat_count;
        l.segment_len = 1;
        l.segment_stride = L.count();
        P.seg_mul = 1;
        P.p_div = 0;
    } else if (spec.method == core::Method::Instance &&
               s.rank == 2) {  // γ per row of an unbatched (C, L): its own stat
        l.segments = 1;
        l.segment_len = s.c;
        l.segment_stride = s.c;
        P.seg_mul = 0;
        P.p_div = 1;
    } else {
        l.segments = s.n;
        l.segment_len = s.hw();
        l.segment_stride = s.chw();
        // Instance and group: N·G statistics (G = C for instance), read from the layout.
        const std::int64_t per_sample = L.stat_count / s.n;
        P.seg_mul = spec.method == core::Method::Batch ? 0u : u32(per_sample);
        P.p_div = spec.method == core::Method::Group ? u32(s.c / per_sample) : 1u;
    }
    return P;
}

}  // namespace normlab::plan
