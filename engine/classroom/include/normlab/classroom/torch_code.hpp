// "Copy as PyTorch": the torch.nn code that computes what the current State computes —
// the module with its arguments, γ/β and running statistics when they are not defaults,
// the train/eval mode and an input of the same shape — so a student can paste it into
// Python and check every number normlab shows.
#pragma once
#include "normlab/core/state.hpp"

#include <string>

namespace normlab::classroom {

// Python source for `state` applied to a tensor of `shape`.
std::string torch_code(const core::State& state, const core::Shape4& shape);

}  // namespace normlab::classroom
