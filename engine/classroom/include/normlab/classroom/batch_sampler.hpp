// Fresh batches for BatchNorm's "train step": a new tensor of x's shape whose channel c
// is drawn from a normal distribution with x's channel-c mean and standard deviation, so
// running statistics converge towards the data the class is looking at (not towards 0, 1).
#pragma once
#include "normlab/core/tensor.hpp"

#include <cstdint>

namespace normlab::classroom {

core::Tensor sample_like(const core::Tensor& x, std::uint64_t seed);

}  // namespace normlab::classroom
