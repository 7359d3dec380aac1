#include "normlab/plan/slab_plan.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>

namespace normlab::plan {

SlabPlan plan_slabs(const core::StatLayout& L, std::int64_t max_elements, std::int64_t align, std::int64_t chunk_len) {
    const std::int64_t count = L.count();
    const std::int64_t numel = L.shape.numel();
    SlabPlan plan;
    auto chunks_of = [&](std::int64_t len) { return static_cast<std::uint32_t>((len + chunk_len - 1) / chunk_len); };
    if (numel <= max_elements) {  // the common case: one window over everything
        Slab s{0, L.stat_count, 0, count, 0, numel, 0, chunks_of(count)};
        plan.slabs.push_back(s);
        plan.chunks_total = s.chunks;
        plan.ranges = 1;
        return plan;
    }
    const std::int64_t room = max_elements - align;  // a window may start up to align-1 early
    if (room < 16) throw core::InputError("the device's storage-buffer range is too small to split the tensor");

    // 1. The element ranges every statistic is split into (each starts at a multiple of 4).
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    auto split = [&](std::int64_t lo, std::int64_t hi) {  // pieces of at most `room` elements
        const std::int64_t step = std::max<std::int64_t>(16, (room / 16) * 16);
        for (std::int64_t e = lo; e < hi; e += step) ranges.emplace_back(e, std::min(hi, e + step));
    };
    if (L.segments == 1) {
        if (count <= room)
            ranges.emplace_back(0, count);
        else
            split(0, count);
    } else {
        // Batch: element e of a channel is sample e / HW; keep whole samples together.
        const std::int64_t per_sample = L.segment_stride;  // C·H·W
        const std::int64_t samples = std::max<std::int64_t>(1, room / per_sample);
        if (room >= per_sample) {
            for (std::int64_t n = 0; n < L.segments; n += samples)
                ranges.emplace_back(n * L.segment_len, std::min(L.segments, n + samples) * L.segment_len);
        } else if (L.segment_len <= room) {
            for (std::int64_t n = 0; n < L.segments; ++n)
                ranges.emplace_back(n * L.segment_len, (n + 1) * L.segment_len);
        } else {
            for (std::int64_t n = 0; n < L.segments; ++n) split(n * L.segment_len, (n + 1) * L.segment_len);
        }
    }
    plan.ranges = static_cast<std::int64_t>(ranges.size());

    // 2. Per range, the statistics in windows of at most max_elements.
    std::uint32_t chunk_base = 0;
    for (const auto& [e_lo, e_hi] : ranges) {
        const std::uint32_t chunks = chunks_of(e_hi - e_lo);
        // The last element of statistic s in this range is at s·stat_stride + last.
        const std::int64_t first = L.element_offset(0, e_lo), last = L.element_offset(0, e_hi - 1);
        std::int64_t s = 0;
        while (s < L.stat_count) {
            const std::int64_t base = ((s * L.stat_stride + first) / align) * align;
            // Largest stat_hi with (stat_hi − 1)·stat_stride + last − base < max_elements.
            std::int64_t hi = (max_elements - 1 + base - last) / L.stat_stride + 1;
            hi = std::clamp<std::int64_t>(hi, s + 1, L.stat_count);
            Slab slab;
            slab.stat_lo = s;
            slab.stat_hi = hi;
            slab.e_lo = e_lo;
            slab.e_hi = e_hi;
            slab.flat_base = base;
            slab.extent = (hi - 1) * L.stat_stride + last - base + 1;
            slab.chunk_base = chunk_base;
            slab.chunks = chunks;
            if (slab.extent > max_elements) throw core::InternalError("a slab exceeds the storage-buffer range");
            plan.slabs.push_back(slab);
            s = hi;
        }
        chunk_base += chunks;
    }
    plan.chunks_total = chunk_base;
    return plan;
}

}  // namespace normlab::plan
