// The Train view's sweep model (views/train's TrainSweep, no ImGui; label train): a small grid run one run
// after another in slices between "frames" on the Vulkan runner gives the CSV normlab-cli train --sweep
// writes for the same grid (the same columns and values, the measured steps per second aside); a
// cancelled sweep has no CSV to export; a bad grid is one line and changes nothing; a scene's sweep
// (view.train.sweep) sets the Sweep tab's fields and starts from them, to the CLI's CSV too.
#include "normlab/classroom/view_settings.hpp"
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/train_options.hpp"
#include "normlab/views/train_sweep.hpp"
#include "normlab/views/train_view.hpp"
#include "../support.hpp"
#include "cli/cli_support.hpp"

#include "view_factory.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <sstream>
#include <thread>

using namespace normlab;
using namespace normlab::views;
using normlab::test::vulkan_factory;

namespace {

// The base run as (key, value): the config's fields and normlab-cli's options alike.
const std::vector<std::pair<std::string, std::string>> kBase{
    {"model", "mlp"},   {"depth", "2"},    {"width", "8"}, {"data", "spirals"},   {"classes", "3"},
    {"samples", "64"},  {"steps", "30"},   {"lr", "0.05"}, {"optimizer", "adam"}, {"seed", "3"},
    {"data-seed", "4"}, {"norm", "batch"}, {"groups", "2"}};

train::TrainConfig base_config() {
    train::TrainConfig c;
    for (const auto& [k, v] : kBase) train::apply_train_option(c, k, v);
    return c;
}

// Frames of 2 ms until the sweep stops; the frames counted.
int play(TrainSweep& s, int max_frames = 200000) {
    int frames = 0;
    while (s.tick() && frames < max_frames) {
        ++frames;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return frames;
}

std::vector<std::vector<std::string>> cells(const std::string& csv) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) {
        rows.emplace_back();
        std::istringstream l(line);
        for (std::string c; std::getline(l, c, ',');) rows.back().push_back(c);
    }
    return rows;
}

// The view's sweep CSV against normlab-cli train --sweep's over kBase with GroupNorm's G `groups` for `sweeps`
// (the --sweep options' values): the same rows, the final numbers bit for bit.
void check_cli_csv(const std::string& view_csv, const std::string& groups, const std::string& sweeps) {
    std::string args = "train";
    for (const auto& [k, v] : kBase) args += " --" + k + " " + (k == "groups" ? groups : v);
    const auto dir = normlab::test::tmpdir() / "sweep-view";
    std::filesystem::create_directories(dir);
    const auto path = dir / "cli.csv";
    const auto r = normlab::test::cli(args + " --sweep " + sweeps + " -q --sweep-csv '" + path.string() + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto view = cells(view_csv), cli = cells(normlab::test::slurp(path));
    INFO("view:\n" << view_csv << "cli:\n" << normlab::test::slurp(path));
    REQUIRE(view.size() == 5u);
    REQUIRE(cli.size() == view.size());
    CHECK(view[0] == cli[0]);  // norm,batch,train_loss,train_acc,val_loss,val_acc,steps_per_s
    for (std::size_t i = 1; i < view.size(); ++i) {
        REQUIRE(view[i].size() == 7u);
        REQUIRE(cli[i].size() == 7u);
        CHECK(view[i][0] == cli[i][0]);
        CHECK(view[i][1] == cli[i][1]);
        // The same program (a sweep's runs plan no boundary grid) on the same kernels: bit for bit.
        for (std::size_t j = 2; j < 6; ++j) CHECK(view[i][j] == cli[i][j]);
        CHECK(std::stod(view[i][6]) > 0);
    }
}

}  // namespace

TEST_CASE("train view: a sweep through the view's model writes normlab-cli's CSV for the same grid", "[train]") {
    const std::vector<train::SweepAxis> axes{train::parse_sweep_axis("norm=batch,group"),
                                             train::parse_sweep_axis("batch=4,16")};
    TrainSweep sweep;
    REQUIRE_FALSE(sweep.start(vulkan_factory(), base_config(), axes));
    CHECK(sweep.running());
    CHECK(sweep.total() == 4);
    CHECK(sweep.current_label() == "norm=batch, batch=4");
    const int frames = play(sweep);
    INFO(frames << " frames");
    CHECK(frames > 4);  // the runs went in slices, one run after another
    REQUIRE(sweep.state() == TrainSweep::State::Done);
    REQUIRE(sweep.finished() == 4);
    const std::string view_csv = sweep.csv();
    const auto view = cells(view_csv);
    check_cli_csv(view_csv, "2", "norm=batch,group --sweep batch=4,16");
    // The figure's lines: one per norm, the batch sizes in order.
    const auto lines = train::sweep_error_series(sweep.axes(), sweep.runs(), sweep.results());
    REQUIRE(lines.size() == 2u);
    CHECK(lines[0].label == "norm=batch");
    CHECK(lines[1].batch == std::vector<double>{4, 16});
    CHECK(lines[1].error[1] == Approx(100.0 * (1.0 - std::stod(view[4][5]))));
}

TEST_CASE("train view: a scene's sweep fills the Sweep tab's fields and starts it as Start sweep does", "[train]") {
    std::string base;
    for (const auto& [k, v] : kBase) base += (base.empty() ? "\"" : ", \"") + k + "\": \"" + v + "\"";
    // Two runs (run 2 the sweep's base); the norms listed out of the view's order.
    const classroom::ViewSettings v = classroom::parse_view(
        R"({"train": {"base": {)" + base + R"(}, "runs": [{"norm": "layer"}, {}], "sweep": {"norm": ["group", "batch"],
        "batch": [4, 16], "run": 2, "start": true}}})",
        "s.json");
    REQUIRE(v.train);
    REQUIRE(v.train->sweep);
    TrainRunSet runs(vulkan_factory());
    REQUIRE_FALSE(runs.show(*v.train));
    TrainView view;
    TrainSweep sweep;
    REQUIRE_FALSE(view.open_sweep(*v.train->sweep, runs, sweep));
    // The fields as the user would have typed and checked them; run 2 selected.
    CHECK(view.selected() == 1);
    CHECK(view.sweep_fields().norms == std::array<bool, 6>{false, true, false, true, false, false});
    CHECK(std::string(view.sweep_fields().batches.data()) == "4,16");
    CHECK(std::string(view.sweep_fields().lrs.data()).empty());
    CHECK(sweep.running());
    CHECK(sweep.total() == 4);
    CHECK(sweep.current_label() == "norm=batch, batch=4");
    // Saved while it runs: the scene's sweep again; opened again: the sweep goes on, not started anew.
    CHECK(view.scene_sweep(runs, sweep) == v.train->sweep);
    const int started = sweep.started();
    REQUIRE_FALSE(view.open_sweep(*v.train->sweep, runs, sweep));
    CHECK(sweep.started() == started);
    play(sweep);
    REQUIRE(sweep.state() == TrainSweep::State::Done);
    // Run 2's config is the base: kBase with GroupNorm's G = 4 from the width of 8 (train::sweep_base).
    check_cli_csv(sweep.csv(), "4", "norm=batch,group --sweep batch=4,16");
    CHECK(view.scene_sweep(runs, sweep) == v.train->sweep);
    // A sweep without "start" sets the fields and leaves the finished sweep; saved, it does not start.
    const classroom::SceneSweep other{train::sweep_axes({"layer"}, "", "0.1,0.2"), 1, false};
    REQUIRE_FALSE(view.open_sweep(other, runs, sweep));
    CHECK(view.selected() == 0);
    CHECK(view.sweep_fields().norms == std::array<bool, 6>{false, false, true, false, false, false});
    CHECK(std::string(view.sweep_fields().batches.data()).empty());
    CHECK(std::string(view.sweep_fields().lrs.data()) == "0.1,0.2");
    CHECK(sweep.started() == started);
    CHECK(sweep.state() == TrainSweep::State::Done);
    CHECK(view.scene_sweep(runs, sweep) == other);
}

TEST_CASE("train view: a cancelled sweep keeps its finished runs and has no CSV", "[train]") {
    TrainSweep sweep;
    REQUIRE_FALSE(sweep.start(vulkan_factory(), base_config(),
                              {train::parse_sweep_axis("norm=none,batch,layer"), train::parse_sweep_axis("batch=8")}));
    while (sweep.finished() < 1 && sweep.tick()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    REQUIRE(sweep.finished() == 1);
    sweep.cancel();
    CHECK(sweep.state() == TrainSweep::State::Cancelled);
    CHECK_FALSE(sweep.tick());
    CHECK(sweep.finished() == 1);
    CHECK(sweep.current_label().empty());
    CHECK_THROWS_WITH(sweep.csv(), Catch::Contains("1 of 3 runs"));
}

TEST_CASE("train view: a bad sweep is one line and changes nothing", "[train]") {
    TrainSweep sweep;
    REQUIRE_FALSE(sweep.start(vulkan_factory(), base_config(), {train::parse_sweep_axis("batch=4,8")}));
    play(sweep);
    REQUIRE(sweep.state() == TrainSweep::State::Done);
    const std::string before = sweep.csv();
    auto refused = [&](const std::vector<train::SweepAxis>& axes, const std::string& what) {
        const auto err = sweep.start(vulkan_factory(), base_config(), axes);
        REQUIRE(err);
        INFO(*err);
        CHECK(err->find(what) != std::string::npos);
        CHECK(err->find('\n') == std::string::npos);
        CHECK(sweep.state() == TrainSweep::State::Done);
        CHECK(sweep.csv() == before);
    };
    refused({train::parse_sweep_axis("norm=none,batch"), train::parse_sweep_axis("batch=1,4")},
            "sweep run norm=batch, batch=1");
    refused({train::parse_sweep_axis("norm=group"), train::parse_sweep_axis("width=8,7")}, "divisible");
    CHECK(sweep.start({}, base_config(), {train::parse_sweep_axis("batch=4")}) ==
          std::string("training is not available on this backend"));
    CHECK_THROWS_WITH(train::sweep_axes({}, " ", ""), Catch::Contains("a sweep needs"));
    refused(train::sweep_axes({"batch"}, "4,x", ""), "'x' is not an integer");  // the view's fields
    CHECK_THROWS_WITH(train::sweep_axes({}, "4,,8", ""), Catch::Contains("empty value"));
    CHECK(train::sweep_axes({"batch", "group"}, "2, 4", "").size() == 2u);
}
