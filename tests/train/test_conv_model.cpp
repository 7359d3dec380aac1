// The cnn trained on the device (plan_cnn_training through the TrainRunner) against PyTorch's float64 runs of
// the same module from the same initial parameters, images and batches (tests/golden/train_ops/cnn_runs.json,
// written by tests/golden/golden_train_ops.py): one run per norm, 30 steps, SGD with momentum or Adam. The loss
// of every step within 1e-4 relative and the final parameters within 1e-3 (relative, floor 1e-2), as the
// mlp's golden runs.
#include "normlab/train/conv_layers.hpp"
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

std::vector<float> floats(const nlohmann::json& j) {
    auto d = j.get<std::vector<double>>();
    return {d.begin(), d.end()};
}

TrainConfig config_of(const nlohmann::json& all, const nlohmann::json& run) {
    TrainConfig c;
    c.model = TrainModel::Cnn;
    c.data = "textures";
    c.depth = all.at("depth");
    c.channels = all.at("channels");
    c.classes = all.at("classes");
    c.batch = all.at("batch");
    c.steps = all.at("steps");
    c.samples = all.at("samples");
    c.norm = parse_train_norm(run.at("norm"));
    c.activation = parse_train_activation(run.at("activation"));
    c.optimizer = parse_train_optimizer(run.at("optimizer"));
    c.lr = run.at("lr");
    c.momentum = run.at("momentum");
    c.groups = run.at("groups");
    return c;
}

// A conv bias right before a norm that subtracts each channel's mean (batch, instance; group: its channels
// are whole) has an exact gradient of 0: under Adam, whose first steps move a parameter by about lr whatever
// its gradient's size, it follows the sign of rounding noise in any run, PyTorch's float64 included.
bool noise_bound(const TrainConfig& c, const std::string& name) {
    const bool centred = c.norm == TrainNorm::Batch || c.norm == TrainNorm::Instance || c.norm == TrainNorm::Group;
    return centred && !c.norm_after && c.optimizer == TrainOptimizer::Adam && name.size() > 9 &&
           name.compare(name.size() - 9, 9, "conv.bias") == 0;
}

}  // namespace

TEST_CASE("the cnn trains as PyTorch's does, step by step, for every norm", "[train][conv][gpu]") {
    const auto& all = runs();
    const auto& d = all.at("data");
    TrainData data;
    data.train = {floats(d.at("x_train")), d.at("y_train").get<std::vector<std::int32_t>>(), 256};
    data.val = {floats(d.at("x_val")), d.at("y_val").get<std::vector<std::int32_t>>(), 256};
    data.batches = d.at("batches").get<std::vector<std::int32_t>>();
    REQUIRE(all.at("runs").size() == 6);
    // serial_norm_members 0: the norms' workgroup-per-set kernels; the default: one invocation per set
    // for sets of at most 1024 elements (train_norm_plan.hpp).
    const std::uint32_t serial = GENERATE(0u, TrainPlanOptions{}.serial_norm_members);
    for (const auto& run : all.at("runs")) {
        TrainConfig c = config_of(all, run);
        INFO("norm " << train_norm_name(c.norm) << ", " << train_optimizer_name(c.optimizer) << ", serial " << serial);
        validate_train_config(c);
        REQUIRE(validation_samples(c) == data.val.samples());
        auto init = init_cnn_params(c);
        REQUIRE(init.size() == run.at("init").size());
        for (auto& t : init) {
            t.values = floats(run.at("init").at(t.name));
            REQUIRE(t.values.size() == t.elements());
        }
        TrainRunner r(test::context(), plan_cnn_training(c, TrainPlanOptions{serial}), 2);
        test::upload_all(r, init, data);
        r.submit(c.steps, 0, true);
        r.finish();
        auto log = r.log();
        for (int s = 0; s < c.steps; ++s) {
            INFO("step " << s);
            CHECK(test::rel_err(log[2 * s], run.at("losses")[s].get<double>()) < 1e-4);
            CHECK(std::abs(log[2 * s + 1] - run.at("accs")[s].get<double>()) < 1e-6);
        }
        auto val = r.val_log();
        CHECK(test::rel_err(val[2 * (c.steps - 1)], run.at("val_loss").get<double>()) < 1e-4);
        for (const auto& t : init) {
            auto got = r.download(t.name);
            auto want = run.at("final").at(t.name).get<std::vector<double>>();
            REQUIRE(got.size() == want.size());
            if (noise_bound(c, t.name)) {  // Adam moves it by at most about lr a step, whatever the sign
                for (std::size_t i = 0; i < got.size(); ++i)
                    CHECK(std::abs(got[i] - t.values[i]) <= 1.01 * c.lr * c.steps);
                continue;
            }
            double worst = 0;
            for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, test::rel_err(got[i], want[i], 1e-2));
            INFO(t.name);
            CHECK(worst < 1e-3);
        }
    }
}
