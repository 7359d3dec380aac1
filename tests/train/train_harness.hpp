// Test helpers for the training suites: run a TrainConfig on the Vulkan runner from its initial
// parameters and data (or given ones), and compare against the float64 reference.
#pragma once
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_params.hpp"
#include "normlab/train/train_plan.hpp"

#include <map>
#include <string>
#include <vector>

namespace normlab::test {

struct TrainRun {
    std::vector<float> log;      // 2 per step
    std::vector<float> val_log;  // 2 per step
    std::map<std::string, std::vector<float>> params;
};

// Runs c.steps steps on the device from `init` and `data` (evaluating after the last step).
TrainRun run_on_device(const TrainConfig& c, const std::vector<TrainTensor>& init, const TrainData& data,
                       int steps_per_submit = 8, const TrainPlanOptions& options = {});

// Uploads the data and parameters of a program into a runner.
void upload_all(TrainDevice& r, const std::vector<TrainTensor>& init, const TrainData& data);

// |a − b| / max(|b|, floor)
double rel_err(double a, double b, double floor = 1e-6);

}  // namespace normlab::test
