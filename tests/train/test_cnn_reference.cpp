// The cnn's float64 reference of a whole training step (CnnReference: forward, backward, SGD with momentum or
// Adam, BatchNorm's running statistics) against PyTorch's float64 runs of the same module from the same initial
// parameters, images and batches (tests/golden/train_ops/cnn_runs.json, golden_train_ops.py): one run per norm
// before the activation, and four with the norm after it (cnn_after_runs.json), 30 steps each. Both sides are float64
// and differ only in the order of their sums: every step's loss, the final parameters and buffers and the validation
// loss agree within 1e-12 relative (measured: at most 8.6e-15).
#include "normlab/train/cnn_reference.hpp"
#include "train_checks.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace normlab;

namespace {

nlohmann::json load(const std::string& name) {
    std::ifstream in(std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/train_ops/" + name);
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}

constexpr double kTol = 1e-12;

// The reference's run of one golden run; returns the worst relative error it saw.
double check_run(const nlohmann::json& all, const nlohmann::json& run, const train::TrainData& data) {
    const train::TrainConfig c = test::cnn_golden_config(all, run);
    const auto init = test::cnn_golden_init(c, run);
    train::CnnReference ref(c, init);
    double worst = 0;
    for (int t = 0; t < c.steps; ++t) {
        const std::vector<std::int32_t> batch(data.batches.begin() + t * c.batch,
                                              data.batches.begin() + (t + 1) * c.batch);
        const auto s = ref.step(data.train, batch);
        const double e = test::rel_err(s.loss, run.at("losses")[t]);
        INFO("step " << t << ": loss " << s.loss << ", PyTorch " << run.at("losses")[t].get<double>());
        CHECK(e < kTol);
        CHECK(s.accuracy == run.at("accs")[t].get<double>());
        worst = std::max(worst, e);
    }
    for (const auto& t : init) {
        const auto want = run.at("final").at(t.name).get<std::vector<double>>();
        const auto& got = ref.tensor(t.name);
        REQUIRE(got.size() == want.size());
        double e = 0;
        for (std::size_t i = 0; i < want.size(); ++i) e = std::max(e, test::rel_err(got[i], want[i], 1.0));
        INFO(t.name << ": worst error " << e);
        CHECK(e < kTol);
        worst = std::max(worst, e);
    }
    const auto v = ref.evaluate(data.val);
    const double e = test::rel_err(v.loss, run.at("val_loss"));
    CHECK(e < kTol);
    CHECK(v.accuracy == run.at("val_acc").get<double>());
    return std::max(worst, e);
}

}  // namespace

TEST_CASE("the cnn's float64 reference trains as PyTorch's float64 runs, step by step, for every norm",
          "[train][conv]") {
    const auto before = load("cnn_runs.json"), after = load("cnn_after_runs.json");
    const train::TrainData data = test::cnn_golden_data(before);  // cnn_after_runs.json trains on the same
    REQUIRE(before.at("runs").size() == 6);
    REQUIRE(after.at("runs").size() == 4);
    for (const auto* all : {&before, &after})
        for (const auto& run : all->at("runs")) {
            INFO("norm " << run.at("norm").get<std::string>() << " " << run.value("placement", std::string("before"))
                         << ", " << run.at("optimizer").get<std::string>());
            CHECK(check_run(*all, run, data) < kTol);
        }
}
