#include "normlab/plan/histogram_set.hpp"

#include "normlab/core/error.hpp"

#include <string>

namespace normlab::plan {

ElementSet ElementSet::whole(const core::Shape4& shape) {
    ElementSet s;
    s.segment_len = shape.numel();
    return s;
}

ElementSet ElementSet::statistic(const core::StatLayout& layout, std::int64_t s) {
    if (s < 0 || s >= layout.stat_count)
        throw core::InputError("statistic " + std::to_string(s) + " is outside 0.." +
                               std::to_string(layout.stat_count - 1));
    ElementSet e;
    e.base = s * layout.stat_stride;
    e.segments = layout.segments;
    e.segment_len = layout.segment_len;
    e.segment_stride = layout.segment_stride;
    return e;
}

void check_histogram(const ElementSet& set, std::uint32_t bins, std::uint64_t value_bytes,
                     std::uint64_t subtract_bytes) {
    if (bins < 1 || bins > kHistogramMaxBins)
        throw core::InputError("histogram bins must be in 1.." + std::to_string(kHistogramMaxBins) + ", got " +
                               std::to_string(bins));
    const std::int64_t last =
        set.count() == 0 ? set.base : set.base + (set.segments - 1) * set.segment_stride + set.segment_len;
    if (set.base < 0 || static_cast<std::uint64_t>(last) * 4 > value_bytes)
        throw core::InputError("histogram set lies outside the value buffer");
    if (subtract_bytes && subtract_bytes < value_bytes)
        throw core::InputError("histogram: the subtracted buffer is smaller than the values");
}

HistogramResult unpack_histogram(const float* res, const std::uint32_t* bins, std::uint32_t bin_count) {
    HistogramResult r;
    r.count = static_cast<std::int64_t>(res[0]);
    r.mean = res[1];
    r.var = res[2];
    r.min = res[4];
    r.max = res[5];
    r.bins.assign(bins, bins + bin_count);
    return r;
}

HistogramPlan plan_histogram(const ElementSet& set, std::uint32_t bins, std::uint64_t max_x, std::uint64_t max_y) {
    const auto u32 = [](std::int64_t v) { return static_cast<std::uint32_t>(v); };
    HistogramPlan p;
    const std::uint32_t chunks = u32((set.count() + kHistogramChunkLen - 1) / kHistogramChunkLen);
    p.grid = dispatch_grid(chunks, max_x, max_y);
    p.params = {u32(set.base),
                u32(set.segments),
                u32(set.segment_len),
                u32(set.segment_stride),
                u32(set.count()),
                kHistogramChunkLen,
                chunks,
                bins,
                p.grid.x,
                {0, 0, 0}};
    p.partial_bytes = std::uint64_t{chunks} * 32;
    return p;
}

}  // namespace normlab::plan
