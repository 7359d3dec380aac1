// The cnn's training steps on the Vulkan device (plan_cnn_training through the TrainRunner) against its float64
// reference (CnnReference) from the same initial parameters and texture data: every norm, both placements and
// both optimizers, over several steps (cnn_checks.hpp's check_cnn_against_reference, which the browser's suite
// runs on WebGPU too), and one step's gradients of every op kind.
#include "cnn_checks.hpp"
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/cnn_reference.hpp"
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_model_plan.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace normlab;

namespace {

test::TrainRun run_cnn(const train::TrainConfig& c, std::uint32_t serial_norm_members) {
    ops::TrainRunner r(test::context(), train::plan_cnn_training(c, train::TrainPlanOptions{serial_norm_members}), 2);
    return test::run_train(r, c, train::init_cnn_params(c), train::make_train_data(c));
}

}  // namespace

TEST_CASE("the cnn's device steps match its float64 reference for every norm, placement and optimizer",
          "[train][conv][gpu]") {
    // serial_norm_members 0: the norms' workgroup-per-set kernels; the default: one invocation per set.
    const std::uint32_t serial = GENERATE(0u, train::TrainPlanOptions{}.serial_norm_members);
    const auto configs = test::cnn_reference_configs();
    REQUIRE(configs.size() == 21);
    for (const train::TrainConfig& c : configs) {
        INFO(test::cnn_config_name(c) << ", serial_norm_members " << serial);
        const auto failures = test::check_cnn_against_reference(c, run_cnn(c, serial));
        for (const auto& f : failures) FAIL_CHECK(f);
        CHECK(failures.empty());
    }
}

TEST_CASE("the cnn reference check fails on a run one term off", "[train][conv][gpu]") {
    // Negative controls: a device run against the reference of its configuration without SGD's momentum, and
    // the run with its third loss 1e-3 off and one conv weight 1e-3 off.
    const auto c = test::small_cnn_config(train::TrainNorm::Batch, false, train::TrainActivation::Relu,
                                          train::TrainOptimizer::Sgd);
    auto dev = run_cnn(c, train::TrainPlanOptions{}.serial_norm_members);
    REQUIRE(test::check_cnn_against_reference(c, dev).empty());
    auto no_momentum = c;
    no_momentum.momentum = 0;
    CHECK(test::check_cnn_against_reference(no_momentum, dev).size() >= 2);
    dev.log[4] *= 1.001f;
    dev.params.at("layers.1.conv.weight")[3] += 1e-3f;
    CHECK(test::check_cnn_against_reference(c, dev).size() == 2);
}

TEST_CASE("the cnn's one-step gradients of every op kind match its float64 reference", "[train][conv][gpu]") {
    // Conv2d (weight, bias, input), AvgPool2d and the global pool, each activation, each norm's dγ/dβ and input
    // gradient, the head and the loss: the gradient buffers after one step, before any optimizer state matters.
    const auto norm = GENERATE(train::TrainNorm::None, train::TrainNorm::Batch, train::TrainNorm::Layer,
                               train::TrainNorm::Instance, train::TrainNorm::Group, train::TrainNorm::Rms);
    const bool after = GENERATE(false, true);
    const auto act =
        GENERATE(train::TrainActivation::Relu, train::TrainActivation::Tanh, train::TrainActivation::Sigmoid);
    auto c = test::small_cnn_config(norm, after, act, train::TrainOptimizer::Sgd);
    c.steps = 1;
    INFO(test::cnn_config_name(c));
    const auto init = train::init_cnn_params(c);
    const auto data = train::make_train_data(c);
    ops::TrainRunner r(test::context(), train::plan_cnn_training(c), 1);
    test::upload_all(r, init, data);
    r.submit(1);
    r.finish();
    train::CnnReference ref(c, init);
    ref.step(data.train, std::vector<std::int32_t>(data.batches.begin(), data.batches.begin() + c.batch));
    for (const auto& t : init) {
        if (!t.trained) continue;
        const auto dev = r.download("grad." + t.name);
        const auto& want = ref.tensor("grad." + t.name);
        double worst = 0, scale = 0;
        for (std::size_t i = 0; i < want.size(); ++i) {
            worst = std::max(worst, std::abs(dev[i] - want[i]));
            scale = std::max(scale, std::abs(want[i]));
        }
        INFO(t.name << " worst " << worst << " scale " << scale);
        // Float32 sums in another order than the float64 reference's, the longest a conv ∂W's or ∂b's over
        // N·H·W = 1024 products: 1e-4 of the gradient's scale. Floor 0.05, about the model's largest gradients: a
        // gradient that cancels in its sum keeps its terms' rounding (measured 1.4e-6 for a conv bias of scale
        // 0.012), and an exact zero (a conv bias before a centring norm; every parameter before InstanceNorm2d
        // after the last activation, which gives the head only β) up to 6.8e-7.
        CHECK(worst < 1e-4 * std::max(scale, 0.05));
    }
}
