// Runs a TrainProgram's passes once through the TrainRunner (engine/ops) on the tests' Vulkan device and
// reads every buffer back: the cnn ops' kernel tests.
#pragma once
#include "normlab/train/train_program.hpp"

#include <utility>
#include <vector>

namespace normlab::test {

// inputs: (buffer index, its float32 values); the other buffers start zeroed. Adds the "log" and "val_log"
// buffers the runner reads when the program has none. Returns every buffer's values (the program's order).
std::vector<std::vector<float>> run_train_program(TrainProgram p,
                                                  const std::vector<std::pair<int, std::vector<float>>>& inputs);

}  // namespace normlab::test
