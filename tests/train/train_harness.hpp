// Test helpers for the training suites: run a TrainConfig on the Vulkan runner from its initial
// parameters and data (or given ones); the runs and checks on any TrainDevice are train_checks.hpp's.
#pragma once
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_params.hpp"
#include "normlab/train/train_plan.hpp"
#include "train_checks.hpp"

#include <vector>

namespace normlab::test {

// The plan's options for the test device: its storage buffers per stage (lavapipe's 32 take the mlp's
// train_linear_norm where it applies).
train::TrainPlanOptions device_plan_options(
    std::uint32_t serial_norm_members = train::TrainPlanOptions{}.serial_norm_members);

// Runs c.steps steps on the device from `init` and `data` (evaluating after the last step).
TrainRun run_on_device(const train::TrainConfig& c, const std::vector<train::TrainTensor>& init,
                       const train::TrainData& data, int steps_per_submit = 8,
                       const train::TrainPlanOptions& options = {});

}  // namespace normlab::test
