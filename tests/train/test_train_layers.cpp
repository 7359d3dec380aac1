// The Train view's layers on the Vulkan device (label train): each layer's strip column equals a CPU
// histogram of the same activations read back, and Inspect layer opens a layer of a real run as the
// session's tensor with the run's norm, so that normlab's normalizer on it gives the training kernel's own
// normalized values (xhat · γ + β with the run's γ, β) over the same statistic groups.
#include "normlab/ops/train_runner.hpp"
#include "normlab/ops/vulkan_backend.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "../histogram_reference.hpp"
#include "../support.hpp"
#include "normlab/views/train_inspect.hpp"
#include "normlab/views/train_runs.hpp"

#include "view_factory.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <thread>

using namespace normlab;
using namespace normlab::views;
using normlab::test::vulkan_factory;

namespace {

train::TrainConfig layer_config(train::TrainModel model, train::TrainNorm norm, bool after = false) {
    train::TrainConfig c;
    c.model = model;
    c.norm = norm;
    c.norm_after = after;
    c.depth = model == train::TrainModel::Mlp ? 3 : 2;
    c.width = 8;
    c.channels = 4;
    c.groups = 2;
    c.data = model == train::TrainModel::Mlp ? "spirals" : "textures";
    c.classes = 3;
    c.samples = 64;
    c.batch = model == train::TrainModel::Mlp ? 16 : 4;
    c.steps = 250;  // a strip column every 3 steps, and the last (250)
    c.lr = 0.05;
    c.seed = 3;
    c.data_seed = 4;
    return c;
}

// The CPU histogram of `x` against the device's.
void check_column(const plan::HistogramResult& got, const std::vector<float>& x) {
    std::vector<std::int64_t> offsets(x.size());
    std::iota(offsets.begin(), offsets.end(), 0);
    const std::string bad = test::histogram_mismatch(got, test::histogram_reference(x, nullptr, offsets, kStripBins));
    INFO(bad);
    CHECK(bad.empty());
}

}  // namespace

TEST_CASE("train view: each layer's strip column is the histogram of its norm input, every few steps", "[train]") {
    for (const train::TrainModel model : {train::TrainModel::Mlp, train::TrainModel::Cnn}) {
        const train::TrainConfig c = layer_config(model, train::TrainNorm::Batch, model == train::TrainModel::Cnn);
        TrainRunSet runs(vulkan_factory());
        REQUIRE_FALSE(runs.start(c));
        const TrainRun& run = runs.runs().front();
        CHECK(run.strips.every == 3);
        // Played in slices between "frames"; paused where the slice on the device ends at a checkpoint (slices
        // end at the strips' steps), so that the device holds that step's batch when its column is compared.
        int next = 60, checked = 0;
        runs.play(true);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
        while (next <= c.steps + 59 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));  // a "frame"
            const int at = std::min(next, c.steps);
            if (run.device->steps_run() >= at) runs.play(false);
            runs.tick();
            if (run.busy || run.steps_done != at) continue;
            for (int i = 0; i < c.depth; ++i) {
                INFO("model " << static_cast<int>(model) << ", layer " << i << ", step " << run.steps_done);
                const auto& col = run.strips.layers[static_cast<std::size_t>(i)].back();
                CHECK(col.step == at);
                check_column(col.hist, train::read_train_layer(*run.device, c, i).x);
            }
            ++checked;
            next += 60;
            runs.play(true);
        }
        CHECK(checked == 5);  // steps 60, 120, 180, 240 and the last, 250
        const auto& cols = run.strips.layers.back();
        REQUIRE(cols.size() == 84);  // steps 3, 6, …, 249 and 250
        for (std::size_t k = 0; k + 1 < cols.size(); ++k) CHECK(cols[k].step == 3 * static_cast<int>(k + 1));
        CHECK(cols.back().step == 250);
        const auto dims = train::train_layer_dims(c, c.depth - 1);
        CHECK(cols.back().hist.count ==
              std::accumulate(dims.begin(), dims.end(), std::int64_t{1}, std::multiplies<>()));
    }
}

namespace {

// Run `c` for 7 steps, open layer `layer` and compare the session with the device.
void check_inspect(session::Session& session, const train::TrainConfig& c, int layer) {
    TrainRunSet runs(vulkan_factory());
    REQUIRE_FALSE(runs.start(c));
    for (int k = 0; k < 7; ++k) {
        runs.step_once();
        runs.finish();
    }
    const auto dir = std::filesystem::temp_directory_path() / "normlab-train-layers-test";
    const auto err = inspect_train_layer(session, runs, 0, layer, dir.string());
    INFO("norm " << train::train_norm_name(c.norm) << (c.norm_after ? " after" : "") << ", layer " << layer);
    REQUIRE_FALSE(err);
    train::TrainDevice& d = *runs.runs().front().device;
    const train::TrainLayerRead read = train::read_train_layer(d, c, layer);
    CHECK(read.step == 7);
    CHECK(session.x().shape.dims() == read.dims);
    CHECK(session.x().data == read.x);
    CHECK(session.state().source.kind == core::TensorSource::Kind::File);
    CHECK(std::filesystem::exists(session.state().source.path));
    if (c.norm == train::TrainNorm::None) return;
    // The statistic groups are the training kernel's sets.
    const auto& dims = read.dims;
    const auto n = static_cast<std::uint32_t>(dims[0]), ch = static_cast<std::uint32_t>(dims[1]);
    const std::uint32_t hw = dims.size() == 4 ? static_cast<std::uint32_t>(dims[2] * dims[3]) : 1;
    const bool whole = c.norm == train::TrainNorm::Layer || c.norm == train::TrainNorm::Rms;
    const train::TrainNormLayout tl =
        train::train_norm_layout(c.norm, n, whole ? ch * hw : ch, whole ? 1 : hw, static_cast<std::uint32_t>(c.groups));
    CHECK(session.layout().stat_count == tl.sets);
    // y = xhat · γ + β, xhat the training forward's of this batch and γ, β the run's now.
    const std::vector<float> xhat = d.download("layers." + std::to_string(layer) + ".xhat");
    const std::vector<float>& y = session.result().y.data;
    REQUIRE(y.size() == read.x.size());
    double worst = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const std::size_t p = whole ? i % (ch * hw) : (i / hw) % ch;  // γ's element: per element or per channel
        const double want = static_cast<double>(xhat[i]) * read.weight[p] + (read.bias.empty() ? 0.0 : read.bias[p]);
        worst = std::max(worst, std::abs(y[i] - want) / (1.0 + std::abs(want)));
    }
    INFO("largest difference from the training forward's xhat · γ + β: " << worst);
    CHECK(worst < 1e-4);
}

}  // namespace

TEST_CASE("train view: Inspect layer opens a run's layer as the tensor, normalized as the run normalizes it",
          "[train]") {
    ops::VulkanBackend backend(test::context());
    session::Session session(backend);
    REQUIRE_FALSE(session.apply(core::State{}, session::TensorChange::from_source()));
    for (const train::TrainNorm n : {train::TrainNorm::Batch, train::TrainNorm::Layer, train::TrainNorm::Group,
                                     train::TrainNorm::Rms, train::TrainNorm::None}) {
        check_inspect(session, layer_config(train::TrainModel::Mlp, n), 1);
        check_inspect(session, layer_config(train::TrainModel::Mlp, n, true), 2);
    }
    for (const train::TrainNorm n :
         {train::TrainNorm::Batch, train::TrainNorm::Instance, train::TrainNorm::Group, train::TrainNorm::Layer})
        check_inspect(session, layer_config(train::TrainModel::Cnn, n), 1);
    // A method the session shows is the run's: GroupNorm with the run's G over the mlp's features.
    check_inspect(session, layer_config(train::TrainModel::Mlp, train::TrainNorm::Group), 0);
    CHECK(session.state().spec.method == core::Method::Group);
    CHECK(session.state().spec.groups == 2);
    CHECK(session.x().shape.dims() == std::vector<std::int64_t>{16, 8});
    // Refused: no such layer, no such run, no step yet; the session's state stays.
    const core::State before = session.state();
    const auto dims_before = session.x().shape.dims();
    TrainRunSet runs(vulkan_factory());
    REQUIRE_FALSE(runs.start(layer_config(train::TrainModel::Mlp, train::TrainNorm::Batch)));
    CHECK(inspect_train_layer(session, runs, 0, 0) ==
          std::optional<std::string>("the run has not run a step yet: its layers hold no batch"));
    runs.step_once();
    runs.finish();
    CHECK(inspect_train_layer(session, runs, 0, 3) ==
          std::optional<std::string>("layer 4 is outside the model's 1..3"));
    CHECK(inspect_train_layer(session, runs, 1, 0) == std::optional<std::string>("no such run"));
    CHECK(session.state().source.path == before.source.path);
    CHECK(session.x().shape.dims() == dims_before);
}

// Inspect's folder keeps the newest kInspectFilesKept layer files: older ones go, the file shown stays
// whatever its age, and files of other names are left alone.
TEST_CASE("train layers: Inspect's folder keeps its newest files and the one shown", "[train]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "normlab-train-prune-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto t0 = fs::file_time_type::clock::now() - std::chrono::hours(1);
    std::vector<fs::path> files;
    for (int i = 0; i < 12; ++i) {
        files.push_back(dir / ("train-run1-batch-layer1-step" + std::to_string(i + 1) + ".npy"));
        std::ofstream(files.back()) << "x";
        fs::last_write_time(files.back(), t0 + std::chrono::minutes(i));
    }
    std::ofstream(dir / "notes.npy") << "x";
    std::ofstream(dir / "train-run1-batch-layer1-step1.csv") << "x";
    prune_inspect_files(dir.string(), files[2].string());  // the third-oldest is the one shown
    CHECK(fs::exists(files[2]));
    for (int i = 0; i < 12; ++i) {
        INFO("file " << i);
        CHECK(fs::exists(files[static_cast<std::size_t>(i)]) == (i == 2 || i >= 12 - (kInspectFilesKept - 1)));
    }
    CHECK(fs::exists(dir / "notes.npy"));
    CHECK(fs::exists(dir / "train-run1-batch-layer1-step1.csv"));
    prune_inspect_files((dir / "missing").string(), "");  // a missing folder: nothing to do, no throw
    fs::remove_all(dir);
}
