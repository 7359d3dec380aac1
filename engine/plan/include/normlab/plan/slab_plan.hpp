// SlabPlan: how a tensor larger than one storage-buffer binding (maxStorageBufferRange, 128 MiB
// on lavapipe) is processed in slabs. Each slab binds a window of x and y no larger than the
// limit and covers statistics [stat_lo, stat_hi) over the same element range [e_lo, e_hi) of
// each (e indexes a statistic's elements as in StatLayout). Element ranges split every
// statistic the same way, so a statistic's partials are numbered chunk_base + chunk.
#pragma once
#include "normlab/core/stat_layout.hpp"

#include <cstdint>
#include <vector>

namespace normlab::plan {

struct Slab {
    std::int64_t stat_lo = 0, stat_hi = 0;  // statistics covered
    std::int64_t e_lo = 0, e_hi = 0;        // elements of each statistic covered
    std::int64_t flat_base = 0;             // first element of the bound window (aligned)
    std::int64_t extent = 0;                // elements in the bound window
    std::uint32_t chunk_base = 0;           // first chunk of [e_lo, e_hi) among the statistic's partials
    std::uint32_t chunks = 0;               // chunks of chunk_len elements in [e_lo, e_hi)
};

struct SlabPlan {
    std::vector<Slab> slabs;
    std::uint32_t chunks_total = 0;  // partials per statistic
    std::int64_t ranges = 0;         // element ranges each statistic is split into
};

// max_elements: the most elements one binding may cover; align: the element alignment of a
// binding's start (a multiple of 4, so vec4 kernels stay aligned); chunk_len: elements per
// partial. Element ranges start at a multiple of 4 wherever the layout's runs are multiples
// of 4 (the layouts vec4 kernels accept); batch ranges start at whole samples.
SlabPlan plan_slabs(const core::StatLayout& layout, std::int64_t max_elements, std::int64_t align,
                    std::int64_t chunk_len);

}  // namespace normlab::plan
