// Test helpers for the training suites (train_harness.hpp).
#include "train_harness.hpp"

#include "../support.hpp"
#include "normlab/train/train_plan.hpp"

namespace normlab::test {

TrainRun run_on_device(const TrainConfig& c, const std::vector<TrainTensor>& init, const TrainData& data,
                       int steps_per_submit, const TrainPlanOptions& options) {
    TrainRunner r(context(), plan_mlp_training(c, options), steps_per_submit);
    return run_train(r, c, init, data);
}

}  // namespace normlab::test
