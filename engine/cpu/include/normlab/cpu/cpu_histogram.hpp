// The histogram of one set of elements on the CPU, as the GPU histogram kernels compute it
// (engine/plan's histogram_set: the same set, chunks of kHistogramChunkLen, result and bins): per
// chunk the count, mean of x − K (K the set's first finite value) and the two-pass M2, min and max;
// the chunks merged with Chan's formula; then every value into `bins` equal bins over [min, max],
// in float32. Non-finite values are skipped. With `subtract`, the values are values − subtract.
#pragma once
#include "normlab/plan/histogram_set.hpp"

#include <cstddef>

namespace normlab::cpu {

// InputError for a bad bin count or a set outside the `size` values (check_histogram).
plan::HistogramResult cpu_histogram(const float* values, std::size_t size, const plan::ElementSet& set,
                                    std::uint32_t bins, const float* subtract = nullptr, std::size_t subtract_size = 0);

}  // namespace normlab::cpu
