// The Train view's model (views/train's train_runs: TrainRunSet, SliceController) without a window (label
// train): slices sized by how frames go; runs played in slices between "frames" on the Vulkan runner give
// the same losses as one submission of the whole run; edits of a run's own and of the shared fields;
// no factory, no training.
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/train_reference.hpp"
#include "../support.hpp"
#include "train_harness.hpp"
#include "normlab/views/train_runs.hpp"

#include "view_factory.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>

using namespace normlab;
using namespace normlab::views;
using normlab::test::vulkan_factory;

namespace {

train::TrainConfig view_config(train::TrainNorm norm) {
    train::TrainConfig c;
    c.depth = 2;
    c.width = 8;
    c.norm = norm;
    c.groups = 2;
    c.samples = 128;
    c.batch = 16;
    c.steps = 37;  // not a multiple of the slices nor of the evaluation's 10
    c.classes = 3;
    c.lr = 0.1;
    c.seed = 5;
    c.data_seed = 2;
    return c;
}

// The decision boundary read after the last step against the float64 reference's eval-mode forward of
// the same grid with the device's final parameters: the reference's arg-max is the device's class
// (its accuracy with the device's classes as labels), but for points whose logits tie within rounding.
void check_boundary(const TrainRun& r) {
    const TrainBoundary& b = r.boundary;
    REQUIRE(b.at_step == r.config.steps);
    const std::size_t points = static_cast<std::size_t>(kBoundaryGrid * kBoundaryGrid);
    REQUIRE(b.cls.size() == points);
    auto params = train::init_mlp_params(r.config);
    for (auto& t : params) t.values = r.device->download(t.name);
    train::TrainDataSet grid;
    const float cell = (b.x1 - b.x0) / kBoundaryGrid;
    for (int j = 0; j < kBoundaryGrid; ++j)
        for (int i = 0; i < kBoundaryGrid; ++i) {
            grid.x.push_back(b.x0 + (static_cast<float>(i) + 0.5f) * cell);
            grid.x.push_back(b.y0 + (static_cast<float>(j) + 0.5f) * cell);
        }
    for (auto k : b.cls) grid.y.push_back(k);
    const train::TrainScore agree = train::MlpReference(r.config, params).evaluate(grid);
    INFO("the reference's class equals the device's at " << agree.accuracy * 100 << " % of the grid");
    CHECK(agree.accuracy >= 0.995);
    std::vector<int> per_class(static_cast<std::size_t>(r.config.classes), 0);
    for (auto k : b.cls) ++per_class[k];
    CHECK(std::count(per_class.begin(), per_class.end(), 0) < r.config.classes - 1);  // not one class everywhere
}

}  // namespace

TEST_CASE("train view: a slice grows while slices finish within fast frames and shrinks when frames are slow",
          "[train]") {
    SliceController s(30.0);
    const int first = s.steps();
    s.finished(0, 10.0);
    CHECK(s.steps() > first);
    for (int i = 0; i < 100; ++i) s.finished(0, 10.0);
    CHECK(s.steps() == SliceController::kMaxSteps);
    const int big = s.steps();
    s.finished(0, 40.0);  // a frame over the budget: smaller, even when the slice was on time
    CHECK(s.steps() == big - big / 4);
    s.finished(0, 50.0);  // past 1.5 times the budget: half
    CHECK(s.steps() == (big - big / 4) / 2);
    const int mid = s.steps();
    s.finished(3, 20.0);  // late, but frames within the budget: kept
    CHECK(s.steps() == mid);
    for (int i = 0; i < 100; ++i) s.finished(2, 80.0);
    CHECK(s.steps() == SliceController::kMinSteps);
    s.finished(0, 85.0);  // slow frames whatever the slice (a busy machine): one step, never more
    CHECK(s.steps() == SliceController::kMinSteps);
    for (int i = 0; i < 3; ++i) s.finished(0, 20.0);  // faster again: it grows
    CHECK(s.steps() > SliceController::kMinSteps);
}

TEST_CASE("train view: a sweep's slices take frames up to 50 ms and one recorded submission at least", "[train]") {
    SliceController s(50.0, kTrainStepsPerSubmit);  // TrainSweep's (TrainRunExtras of its run)
    CHECK(s.steps() == kTrainStepsPerSubmit);
    s.finished(0, 45.0);  // within 20 fps and on time: it grows where the view's runs (30 ms) would shrink
    CHECK(s.steps() > kTrainStepsPerSubmit);
    for (int i = 0; i < 100; ++i) s.finished(0, 120.0);  // slow frames whatever the slice: one submission, never less
    CHECK(s.steps() == kTrainStepsPerSubmit);
}

TEST_CASE("train view: runs played in slices between frames equal one submission of each whole run", "[train]") {
    TrainRunSet runs(vulkan_factory());
    REQUIRE_FALSE(runs.start(view_config(train::TrainNorm::Batch)));
    REQUIRE_FALSE(runs.add_copy(0));  // the next norm no run has: none
    REQUIRE(runs.runs().size() == 2);
    CHECK(runs.runs()[1].config.norm == train::TrainNorm::None);
    CHECK(runs.runs()[1].colour == 1);
    runs.play(true);
    int frames = 0;
    while (runs.tick()) {  // a frame every 5 ms; tick never waits for the device
        ++frames;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        REQUIRE(frames < 100000);
    }
    INFO(frames << " frames");
    CHECK(frames > 2);  // the 37 steps went in several slices
    CHECK_FALSE(runs.playing());
    CHECK(runs.done());
    for (const auto& r : runs.runs()) {
        INFO(r.label());
        const auto whole =
            normlab::test::run_on_device(r.config, train::init_mlp_params(r.config), train::make_train_data(r.config));
        REQUIRE(r.curves.loss.size() == 37u);
        for (std::size_t t = 0; t < 37; ++t) {
            CHECK(r.curves.loss[t] == whole.log[2 * t]);
            CHECK(r.curves.acc[t] == whole.log[2 * t + 1]);
        }
        // Evaluated after steps 10, 20, 30 and the last, 37 (the boundary's grid in the same eval pass).
        REQUIRE(r.curves.val_step == std::vector<int>{10, 20, 30, 37});
        CHECK(r.curves.val_loss.back() == Approx(whole.val_log[2 * 36]).epsilon(1e-6));
        CHECK(r.curves.val_acc.back() == whole.val_log[2 * 36 + 1]);
        const auto& l = r.curves.loss;  // the batch loss fell: the last 5 steps' mean against the first 5's
        CHECK(std::accumulate(l.end() - 5, l.end(), 0.0) < std::accumulate(l.begin(), l.begin() + 5, 0.0));
        check_boundary(r);
    }
    CHECK(runs.steps_per_second() > 0);
}

TEST_CASE("train view: one step at a time, edits and resets", "[train]") {
    TrainRunSet runs(vulkan_factory());
    REQUIRE_FALSE(runs.start(view_config(train::TrainNorm::Layer)));
    REQUIRE_FALSE(runs.add_copy(0));
    runs.step_once();
    runs.finish();
    for (const auto& r : runs.runs()) CHECK(r.steps_done == 1);
    // A run's own field: that run starts again, the other keeps its step.
    train::TrainConfig c = runs.runs()[1].config;
    c.lr = 0.05;
    REQUIRE_FALSE(runs.edit(1, c));
    CHECK(runs.runs()[1].steps_done == 0);
    CHECK(runs.runs()[0].steps_done == 1);
    // A shared field (the batch): every run has it and starts again.
    c.batch = 8;
    REQUIRE_FALSE(runs.edit(1, c));
    CHECK(runs.runs()[0].config.batch == 8);
    CHECK(runs.runs()[0].steps_done == 0);
    // A refused edit: one line, nothing changed.
    c.norm = train::TrainNorm::Group;
    c.groups = 3;  // does not divide the width 8
    const auto err = runs.edit(1, c);
    REQUIRE(err);
    CHECK(err->find('\n') == std::string::npos);
    CHECK(runs.runs()[1].config.norm != train::TrainNorm::Group);
    while (runs.runs().size() < kMaxTrainRuns) REQUIRE_FALSE(runs.add_copy(0));
    CHECK(runs.add_copy(0));  // a fifth: refused
}

TEST_CASE("train view: without a factory (the CPU backend) nothing trains and the view says so", "[train]") {
    TrainRunSet runs;
    CHECK_FALSE(runs.available());
    const auto err = runs.start(view_config(train::TrainNorm::Batch));
    REQUIRE(err);
    CHECK(*err == "training is not available on this backend");
    CHECK(runs.runs().empty());
    runs.play(true);
    CHECK_FALSE(runs.tick());
}
