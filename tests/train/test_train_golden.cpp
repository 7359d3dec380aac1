// PyTorch's golden runs (tests/golden/train/*.json, made by tests/golden/golden_train.py) against the
// Vulkan runner and the float64 reference (label train): from the golden initial parameters and data,
// 30 steps of each case; the loss at every step within 1e-4 relative, the final parameters and
// buffers within 1e-3 (relative above 1), the final validation loss within 1e-4. Elements that
// Adam drives from float rounding noise (MlpReference::noise_bound) are left out of the parameter
// check. Also checks that engine/train still draws the golden initial parameters and data.
#include "normlab/train/train_reference.hpp"
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

const std::filesystem::path kGoldenDir = std::filesystem::path(NORMLAB_SOURCE_DIR) / "tests/golden/train";

std::vector<std::string> case_names() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(kGoldenDir))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

nlohmann::json load_case(const std::string& name) {
    std::ifstream in(kGoldenDir / (name + ".json"));
    return nlohmann::json::parse(in);
}

TrainConfig config_of(const nlohmann::json& j) {
    TrainConfig c;
    c.depth = j["depth"];
    c.width = j["width"];
    c.activation = parse_train_activation(j["activation"]);
    c.norm = parse_train_norm(j["norm"]);
    c.groups = j["groups"];
    c.norm_after = j["placement"] == "after";
    c.data = j["data"];
    c.classes = j["classes"];
    c.samples = j["samples"];
    c.noise = j["noise"];
    c.data_seed = j["data_seed"];
    c.batch = j["batch"];
    c.steps = j["steps"];
    c.lr = j["lr"];
    c.optimizer = parse_train_optimizer(j["optimizer"]);
    c.momentum = j["momentum"];
    c.seed = j["seed"];
    validate_train_config(c);
    return c;
}

TrainDataSet set_of(const nlohmann::json& x, const nlohmann::json& y) {
    TrainDataSet s;
    s.x = x.get<std::vector<float>>();
    s.y = y.get<std::vector<std::int32_t>>();
    return s;
}

// Worst |a − b| / max(1, |b|) over the elements not flagged by `skip`.
template <typename A>
double worst_error(const A& a, const std::vector<float>& b, const std::vector<bool>& skip) {
    double worst = 0;
    for (std::size_t i = 0; i < b.size(); ++i)
        if (skip.empty() || !skip[i])
            worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(1.0, std::abs(1.0 * b[i])));
    return worst;
}

}  // namespace

TEST_CASE("train: golden cases are present", "[train]") { CHECK(case_names().size() == 10); }

TEST_CASE("train: device and float64 reference match PyTorch's golden runs", "[train]") {
    const auto name = GENERATE(from_range(case_names()));
    INFO("golden case " << name);
    const auto j = load_case(name);
    const TrainConfig c = config_of(j["config"]);
    TrainData data{set_of(j["data"]["x_train"], j["data"]["y_train"]), set_of(j["data"]["x_val"], j["data"]["y_val"]),
                   j["data"]["batches"].get<std::vector<std::int32_t>>()};
    auto init = init_mlp_params(c);
    const auto drawn = make_train_data(c);
    CHECK(drawn.train.x == data.train.x);  // engine/train still draws what PyTorch trained on
    CHECK(drawn.train.y == data.train.y);
    CHECK(drawn.batches == data.batches);
    for (auto& t : init) {
        const auto golden = j["init"][t.name].get<std::vector<float>>();
        CHECK(t.values == golden);
        t.values = golden;
    }

    const auto dev = normlab::test::run_on_device(c, init, data, 8);
    MlpReference ref(c, init);
    const auto loss = j["loss"].get<std::vector<double>>();
    for (int t = 0; t < c.steps; ++t) {
        const std::vector<std::int32_t> batch(data.batches.begin() + t * c.batch,
                                              data.batches.begin() + (t + 1) * c.batch);
        const auto s = ref.step(data.train, batch);
        INFO("step " << t << ": golden " << loss[t] << ", device " << dev.log[2 * t] << ", reference " << s.loss);
        CHECK(rel_err(dev.log[2 * t], loss[t]) < 1e-4);
        CHECK(rel_err(s.loss, loss[t]) < 1e-4);
    }
    bool noisy = false;
    for (const auto& [pname, values] : dev.params) {
        const auto golden = j["final"][pname].get<std::vector<float>>();
        const auto skip = ref.noise_bound(pname);
        noisy = noisy || std::find(skip.begin(), skip.end(), true) != skip.end();
        INFO(pname);
        CHECK(worst_error(values, golden, skip) < 1e-3);
        CHECK(worst_error(ref.tensor(pname), golden, skip) < 1e-3);
    }
    if (!noisy) {  // the eval-mode forward uses the running means: not where they follow noise
        const int last = c.steps - 1;
        const double val_loss = j["val_loss"];
        CHECK(rel_err(dev.val_log[2 * last], val_loss) < 1e-4);
        CHECK(rel_err(ref.evaluate(data.val).loss, val_loss) < 1e-4);
    }
}
