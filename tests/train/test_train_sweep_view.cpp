// The Train view's sweep model (views/train's TrainSweep, no ImGui; label train): a small grid run one run
// after another in slices between "frames" on the Vulkan runner gives the CSV normlab-cli train --sweep
// writes for the same grid (the same columns and values, the measured steps per second aside); a
// cancelled sweep has no CSV to export; a bad grid is one line and changes nothing.
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/train_options.hpp"
#include "normlab/views/train_sweep.hpp"
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

    std::string args = "train";
    for (const auto& [k, v] : kBase) args += " --" + k + " " + v;
    const auto dir = normlab::test::tmpdir() / "sweep-view";
    std::filesystem::create_directories(dir);
    const auto path = dir / "cli.csv";
    const auto r = normlab::test::cli(args + " --sweep norm=batch,group --sweep batch=4,16 -q --sweep-csv '" +
                                      path.string() + "'");
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
    // The figure's lines: one per norm, the batch sizes in order.
    const auto lines = train::sweep_error_series(sweep.axes(), sweep.runs(), sweep.results());
    REQUIRE(lines.size() == 2u);
    CHECK(lines[0].label == "norm=batch");
    CHECK(lines[1].batch == std::vector<double>{4, 16});
    CHECK(lines[1].error[1] == Approx(100.0 * (1.0 - std::stod(view[4][5]))));
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
    CHECK_THROWS_WITH(sweep_axes({}, " ", ""), Catch::Contains("a sweep needs"));
    refused(sweep_axes({"batch"}, "4,x", ""), "'x' is not an integer");  // the view's fields
    CHECK_THROWS_WITH(sweep_axes({}, "4,,8", ""), Catch::Contains("empty value"));
    CHECK(sweep_axes({"batch", "group"}, "2, 4", "").size() == 2u);
}
