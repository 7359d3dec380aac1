// Runs a TrainProgram once on the tests' Vulkan device (tests/support.hpp's context) and reads every buffer
// back: the cnn ops' kernel tests until they run through the train runner.
#pragma once
#include "normlab/train/train_program.hpp"

#include <utility>
#include <vector>

namespace normlab::test {

// inputs: (buffer index, its float32 values); the other buffers start zeroed. Returns every buffer's values.
std::vector<std::vector<float>> run_train_program(const TrainProgram& p,
                                                  const std::vector<std::pair<int, std::vector<float>>>& inputs);

}  // namespace normlab::test
