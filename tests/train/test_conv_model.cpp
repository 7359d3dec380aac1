// The cnn trained on the device (plan_cnn_training through the TrainRunner) against PyTorch's float64 runs of
// the same module from the same initial parameters, images and batches (tests/golden/train_ops/cnn_runs.json,
// written by tests/golden/golden_train_ops.py): one run per norm, 30 steps, SGD with momentum or Adam. The loss
// of every step within 1e-4 relative and the final parameters within 1e-3 (relative, floor 1e-2), as the
// mlp's golden runs (train_checks.hpp's check_cnn_run, which the browser's suite runs on WebGPU too).
#include "normlab/train/conv_model_plan.hpp"
#include "support.hpp"
#include "train_harness.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace normlab;

namespace {

const nlohmann::json& runs() {
    static const nlohmann::json j = [] {
        std::ifstream in(std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/train_ops/cnn_runs.json");
        REQUIRE(in.good());
        return nlohmann::json::parse(in);
    }();
    return j;
}

}  // namespace

TEST_CASE("the cnn trains as PyTorch's does, step by step, for every norm", "[train][conv][gpu]") {
    const auto& all = runs();
    const train::TrainData data = test::cnn_golden_data(all);
    REQUIRE(all.at("runs").size() == 6);
    // serial_norm_members 0: the norms' workgroup-per-set kernels; the default: one invocation per set
    // for sets of at most 1024 elements (train_norm_plan.hpp).
    const std::uint32_t serial = GENERATE(0u, train::TrainPlanOptions{}.serial_norm_members);
    for (const auto& run : all.at("runs")) {
        const train::TrainConfig c = test::cnn_golden_config(all, run);
        INFO("norm " << train::train_norm_name(c.norm) << ", " << train::train_optimizer_name(c.optimizer)
                     << ", serial " << serial);
        REQUIRE(train::validation_samples(c) == data.val.samples());
        const auto init = test::cnn_golden_init(c, run);
        ops::TrainRunner r(test::context(), train::plan_cnn_training(c, train::TrainPlanOptions{serial}), 2);
        const auto failures = test::check_cnn_run(run, c, init, test::run_train(r, c, init, data));
        for (const auto& f : failures) FAIL_CHECK(f);
        CHECK(failures.empty());
    }
}
