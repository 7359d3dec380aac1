// Test helpers for the training suites (train_harness.hpp).
#include "train_harness.hpp"

#include "../support.hpp"
#include "normlab/train/train_plan.hpp"

namespace normlab::test {

train::TrainPlanOptions device_plan_options(std::uint32_t serial_norm_members) {
    train::TrainPlanOptions o{serial_norm_members};
    o.max_storage_buffers = context().limits().maxPerStageDescriptorStorageBuffers;
    return o;
}

TrainRun run_on_device(const train::TrainConfig& c, const std::vector<train::TrainTensor>& init,
                       const train::TrainData& data, int steps_per_submit, const train::TrainPlanOptions& options) {
    ops::TrainRunner r(context(), train::plan_mlp_training(c, options), steps_per_submit);
    return run_train(r, c, init, data);
}

}  // namespace normlab::test
