// PyTorch's golden runs of normlab-cli train --model cnn (tests/golden/train_cnn/*.json, made by
// tests/golden/golden_train_cnn.py: every norm, instance included, with SGD and Adam) against the Vulkan
// runner (label train): engine/train must still draw the images (their sums), labels, batch order and
// initial parameters PyTorch trained from; then 30 steps of the cnn's program as normlab-cli runs it: the loss
// at every step within 1e-4 relative, the final parameters and buffers within 1e-3 (relative above 1), the
// final validation loss within 1e-4. A conv bias right before a norm that subtracts its channel's mean has
// an exact gradient of 0; under Adam it follows rounding noise in both runs and is only checked to have
// moved by at most lr a step.
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_model_plan.hpp"
#include "support.hpp"
#include "train_checks.hpp"
#include "train_harness.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace normlab;
using normlab::test::rel_err;

namespace {

const std::filesystem::path kDir = std::filesystem::path(NORMLAB_SOURCE_DIR) / "tests/golden/train_cnn";

std::vector<std::string> case_names() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(kDir))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The images' sums as golden_train_cnn.py keeps them.
void check_images(const std::vector<float>& x, const nlohmann::json& j) {
    double sum = 0, squares = 0;
    for (const float v : x) {
        sum += v;
        squares += static_cast<double>(v) * v;
    }
    REQUIRE(x.size() == j.at("count").get<std::size_t>());
    CHECK(std::abs(sum - j.at("sum").get<double>()) < 1e-9 * std::max(1.0, squares));
    CHECK(std::abs(squares - j.at("sum_squares").get<double>()) < 1e-9 * std::max(1.0, squares));
    const auto first = j.at("first").get<std::vector<float>>();
    CHECK(std::equal(first.begin(), first.end(), x.begin()));
}

}  // namespace

TEST_CASE("train: the cnn's golden cases are present", "[train]") { CHECK(case_names().size() == 12); }

TEST_CASE("train: the cnn on the device matches PyTorch's runs of normlab-cli train", "[train]") {
    const auto name = GENERATE(from_range(case_names()));
    INFO("golden case " << name);
    std::ifstream in(kDir / (name + ".json"));
    const auto j = nlohmann::json::parse(in);
    const train::TrainConfig c = test::golden_cli_config(j.at("config"));
    const train::TrainData data = train::make_train_data(c);  // engine/train still draws what PyTorch trained on
    check_images(data.train.x, j.at("data").at("x_train"));
    check_images(data.val.x, j.at("data").at("x_val"));
    CHECK(data.train.y == j.at("data").at("y_train").get<std::vector<std::int32_t>>());
    CHECK(data.val.y == j.at("data").at("y_val").get<std::vector<std::int32_t>>());
    CHECK(data.batches == j.at("data").at("batches").get<std::vector<std::int32_t>>());
    const auto init = train::init_cnn_params(c);
    for (const auto& t : init)
        if (j.at("init").contains(t.name)) CHECK(t.values == j.at("init").at(t.name).get<std::vector<float>>());

    ops::TrainRunner r(test::context(), train::plan_cnn_training(c),
                       16);  // as normlab-cli train, 16 steps a submission
    test::upload_all(r, init, data);
    r.submit(c.steps, 10, true);
    r.finish();
    const auto log = r.log(), val = r.val_log();
    const auto loss = j.at("loss").get<std::vector<double>>(), acc = j.at("accuracy").get<std::vector<double>>();
    for (int s = 0; s < c.steps; ++s) {
        INFO("step " << s << ": golden " << loss[s] << ", device " << log[2 * s]);
        CHECK(rel_err(log[2 * s], loss[s]) < 1e-4);
        CHECK(std::abs(log[2 * s + 1] - acc[s]) < 1e-6);
    }
    CHECK(rel_err(val[2 * (c.steps - 1)], j.at("val_loss").get<double>()) < 1e-4);
    for (const auto& t : init) {
        INFO(t.name);
        const auto got = r.download(t.name);
        const auto want = j.at("final").at(t.name).get<std::vector<float>>();
        REQUIRE(got.size() == want.size());
        const bool noisy = test::cnn_noise_bound(c, t.name);
        double worst = 0;  // noisy: the move in units of lr a step; else |got − want| / max(1, |want|)
        for (std::size_t i = 0; i < want.size(); ++i) {
            const double e = noisy ? std::abs(got[i] - t.values[i]) / (1.01 * c.lr * c.steps)
                                   : std::abs(got[i] - want[i]) / std::max(1.0, std::abs(1.0 * want[i]));
            worst = std::max(worst, e);
        }
        CHECK(worst < (noisy ? 1.0 : 1e-3));
    }
}
