// Test helpers for the training suites (train_harness.hpp).
#include "train_harness.hpp"

#include "../support.hpp"
#include "normlab/train/train_plan.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::test {

void upload_all(TrainDevice& r, const std::vector<TrainTensor>& init, const TrainData& data) {
    auto up_u32 = [&](const char* name, const std::vector<std::int32_t>& v) { r.upload(name, v.data(), v.size() * 4); };
    r.upload("x_train", data.train.x.data(), data.train.x.size() * 4);
    r.upload("x_val", data.val.x.data(), data.val.x.size() * 4);
    up_u32("y_train", data.train.y);
    up_u32("y_val", data.val.y);
    up_u32("batches", data.batches);
    for (const auto& t : init) r.upload(t.name, t.values.data(), t.values.size() * 4);
}

TrainRun run_on_device(const TrainConfig& c, const std::vector<TrainTensor>& init, const TrainData& data,
                       int steps_per_submit, const TrainPlanOptions& options) {
    TrainRunner r(context(), plan_mlp_training(c, options), steps_per_submit);
    upload_all(r, init, data);
    r.submit(c.steps, 0, true);
    r.finish();
    TrainRun out{r.log(), r.val_log(), {}};
    for (const auto& t : init) out.params[t.name] = r.download(t.name);
    return out;
}

double rel_err(double a, double b, double floor) { return std::abs(a - b) / std::max(std::abs(b), floor); }

}  // namespace normlab::test
