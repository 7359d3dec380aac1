// What a histogram is of and what it gives, shared by both backends' histogram ops (the Vulkan
// Histogram, shaders/histogram.comp; the WebGPU WgpuHistogram, shaders/wgsl/histogram.wgsl): the
// set of elements (the whole tensor, or one StatLayout statistic's runs), the result (count, mean,
// biased variance, min, max and equal-width bins over [min, max]; non-finite values skipped), the
// checks of a request, the plan of its three passes (made once here; each backend only encodes
// it) and the unpacking of the kernels' read-back result block.
#pragma once
#include "normlab/plan/dispatch_grid.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace normlab::plan {

// `segments` runs of `segment_len` values, `segment_stride` apart, from `base`.
struct ElementSet {
    std::int64_t base = 0;
    std::int64_t segments = 1;
    std::int64_t segment_len = 0;
    std::int64_t segment_stride = 0;
    std::int64_t count() const { return segments * segment_len; }

    static ElementSet whole(const core::Shape4& shape);
    static ElementSet statistic(const core::StatLayout& layout, std::int64_t s);
};

struct HistogramResult {
    std::vector<std::uint32_t> bins;
    std::int64_t count = 0;  // finite values counted
    double mean = 0.0, var = 0.0, min = 0.0, max = 0.0;
    double gpu_ms = 0.0;
};

inline constexpr std::uint32_t kHistogramMaxBins = 256;
// Elements per workgroup of the statistics and binning passes (both kernels: 256 invocations × 16).
inline constexpr std::uint32_t kHistogramChunkLen = 256 * 16;

// Throws InputError for bins outside 1..kHistogramMaxBins, a set outside a buffer of
// `value_bytes`, or a subtracted buffer of `subtract_bytes` (0: none) smaller than the values.
void check_histogram(const ElementSet& set, std::uint32_t bins, std::uint64_t value_bytes,
                     std::uint64_t subtract_bytes);

// The three passes' parameter block: shaders/histogram.comp's Push (the first 36 bytes, a push
// constant) and shaders/wgsl/histogram.wgsl's Hist (all 48: a uniform is a multiple of 16 bytes).
struct HistogramParams {
    std::uint32_t base, segments, segment_len, segment_stride, count, chunk_len, chunks, bins, groups_x;
    std::uint32_t pad[3];
};
static_assert(sizeof(HistogramParams) == 48);
inline constexpr std::uint32_t kHistogramPushBytes = offsetof(HistogramParams, pad);  // the fields before pad
static_assert(kHistogramPushBytes == 9 * 4);  // histogram.comp's Push: nine uints

// A histogram as both backends run it: pass 0 (each chunk's count, sums, min and max) on `grid`,
// pass 1 (the merge, which also finds the bins' range) on one workgroup, pass 2 (the binning) on
// `grid`; the chunks' partial sums take `partial_bytes` (32 per chunk). For a non-empty set.
struct HistogramPlan {
    HistogramParams params;
    DispatchGrid grid;
    std::uint64_t partial_bytes = 0;
};
// The plan of `bins` bins over `set` on a device that launches at most max_x × max_y workgroups.
HistogramPlan plan_histogram(const ElementSet& set, std::uint32_t bins, std::uint64_t max_x, std::uint64_t max_y);

// The result from the kernels' block: res = (count, mean, var, K, min, max, …), then `bins` counts.
HistogramResult unpack_histogram(const float* res, const std::uint32_t* bins, std::uint32_t bin_count);

}  // namespace normlab::plan
