// The CPU reference of the histogram kernels (shaders/histogram.comp and shaders/wgsl/histogram.wgsl),
// shared by the Vulkan shader test (tests/shaders/test_histogram.cpp) and the browser's kernel test
// (web/src/histogram_test.cpp): count, mean, biased variance, min, max and every bin of the values at
// given offsets, in the kernels' float32 bin arithmetic, and the comparison with a device's result.
// Backend-neutral: depends on engine/core only.
#pragma once
#include "normlab/plan/histogram_set.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::test {

struct RefHistogram {
    std::vector<std::uint32_t> bins;
    std::int64_t count = 0;
    double mean = 0, var = 0, min = 0, max = 0;
    std::int64_t near_edge = 0;  // values within 1e-4 bin widths of an inner edge (rounding may move them)
};

// The CPU reference. Each value is x[i] (or x[i] − sub[i], subtracted in float32 as the shader does); NaN
// and ±Inf are skipped and not counted. Bins follow the kernels' PASS 2, in float32 as they compute:
//   max > min:  bin = clamp(int((v − min) · (float(bins) / (max − min))), 0, bins − 1)
//               so bin k is [min + k·w, min + (k+1)·w): a value exactly on an inner edge goes to the upper
//               bin, and the value max (position `bins`) into the last bin;
//   max == min: every value into bin bins / 2 (a constant set).
RefHistogram histogram_reference(const std::vector<float>& x, const std::vector<float>* sub,
                                 const std::vector<std::int64_t>& offsets, std::uint32_t bins);

// The offsets of statistic s from StatLayout::element_offset (not from ElementSet's arithmetic).
std::vector<std::int64_t> statistic_offsets(const core::StatLayout& l, std::int64_t s);

// "" when `got` matches: count, min and max exactly, mean and variance within float32 rounding, every
// bin. exact_bins: the set's bin arithmetic is exact (values and range on a binary grid), so every bin
// must match; otherwise a value within 1e-4 bin widths of an edge may land in either neighbour (a
// device whose division is not correctly rounded), and every other value must match. Otherwise the
// differences, with both results.
std::string histogram_mismatch(const plan::HistogramResult& got, const RefHistogram& ref, bool exact_bins = false);

}  // namespace normlab::test
