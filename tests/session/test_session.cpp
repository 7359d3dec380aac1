// The app's state logic without a window (engine/session): apply a state, keep the tensor on
// the GPU across changes of method, G, eps and γ, refuse a bad value and keep the old state;
// an image under AdaIN against PyTorch's golden data; a 1-D tensor and a normalized_shape of every dim.
#include <catch2/catch.hpp>

#include "../generated_state.hpp"
#include "../support.hpp"
#include "normlab/session/session.hpp"
#include "normlab/session/shown_values.hpp"
#include "normlab/ops/vulkan_backend.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/io/scene_file.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

using namespace normlab;
using namespace normlab::test;

namespace {
const session::TensorChange keep = session::TensorChange::keep(), load = session::TensorChange::from_source();

// What a device buffer holds (its first `n` floats).
std::vector<float> on_device(const plan::DeviceTensor& t, std::size_t n) {
    gpu::CommandRecorder rec(context());
    gpu::Staging st(context(), rec);
    std::vector<float> out(n);
    st.download({{&ops::vulkan_buffer(t), 0, out.data(), n * 4}});
    return out;
}

}  // namespace

TEST_CASE("x stays on the GPU when only the method, G, eps or γ change", "[gpu][session]") {
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    core::State s = session::with_groups(generated_state(core::Method::Group, {3, 8, 6, 5}), 2);
    REQUIRE_FALSE(session.apply(s, load).has_value());
    const std::uint64_t x_bytes = 3 * 8 * 6 * 5 * 4;
    CHECK(session.last_x_upload_bytes() == x_bytes);
    CHECK(session.last_x_histogram_recomputed());
    const std::uint64_t x_gen = session.x_generation();

    // The edits the panels and keys make, through the entry point they call.
    const core::State g4 = session::with_groups(s, 4);
    REQUIRE_FALSE(session.apply(g4, keep).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK_FALSE(session.last_x_histogram_recomputed());
    CHECK(session.result().y.data == normalizer().run(session.x(), g4.spec).y.data);

    const core::State eps = session::with_params(session::with_eps(g4, 1e-2), std::vector<float>(8, 2.0f), {});
    REQUIRE_FALSE(session.apply(eps, keep).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK(session.result().y.data == normalizer().run(session.x(), eps.spec, eps.params).y.data);

    REQUIRE_FALSE(session.apply(session::with_method(eps, core::Method::Layer, 8), keep).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK(session.state().params.weight.empty());  // a method change resets γ/β
    CHECK(session.max_error_wait() <= 1e-5);
    // The histograms read the Normalizer's own x and y: every element counted.
    CHECK(session.histograms().input.count == 3 * 8 * 6 * 5);
    CHECK(session.histograms().output.count == 3 * 8 * 6 * 5);
    CHECK(session.x_generation() == x_gen);

    // from_source() with the same generated source keeps x as well.
    REQUIRE_FALSE(session.apply(session.state(), load).has_value());
    CHECK(session.last_x_upload_bytes() == 0);

    const core::State other = session::with_source_seed(session.state(), 12);  // a new tensor is uploaded
    CHECK_THROWS_AS(session.apply(other, keep), core::InternalError);  // a bug of the caller's, not the user's input
    CHECK(session.x_generation() == x_gen);                            // nothing changed
    REQUIRE_FALSE(session.apply(other, load).has_value());
    CHECK(session.last_x_upload_bytes() == x_bytes);
    CHECK(session.last_x_histogram_recomputed());
    CHECK(session.x_generation() == x_gen + 1);
    CHECK(context().validation_messages() == 0);
}

TEST_CASE("a .npy file's tensor stays on the GPU across edits; from_source() reads it again", "[gpu][session]") {
    const std::string path = (std::filesystem::temp_directory_path() / "normlab-session-file.npy").string();
    const core::Tensor x = make_tensor({2, 4, 3, 3}, core::Init::Randn, 5);
    io::write_file_atomic(path, io::npy_bytes_f32({2, 4, 3, 3}, x.data.data()));
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    core::State s = session::with_source_file(generated_state(core::Method::Batch, x.shape), path);
    REQUIRE_FALSE(session.apply(s, load).has_value());
    CHECK(session.last_x_upload_bytes() == 72 * 4);
    for (const core::State& next :
         {session::toggled_mode(s), session::with_method(s, core::Method::Instance, 4), session::with_eps(s, 0.1)}) {
        REQUIRE_FALSE(session.apply(next, keep).has_value());
        CHECK(session.last_x_upload_bytes() == 0);
        CHECK(session.max_error_wait() <= 1e-5);
    }
    REQUIRE_FALSE(session.apply(session.state(), load).has_value());  // "load .npy" again
    CHECK(session.last_x_upload_bytes() == 72 * 4);
    CHECK(context().validation_messages() == 0);
}

TEST_CASE("a refused value keeps the previous state and numbers", "[gpu][session]") {
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    core::State s = generated_state(core::Method::Group, {2, 6, 4, 4});
    s.spec.groups = 3;
    REQUIRE_FALSE(session.apply(s, load).has_value());
    const std::vector<float> y = session.result().y.data;
    const std::uint64_t gen = session.generation();

    core::State bad = s;
    bad.spec.groups = 4;  // does not divide C = 6
    auto err = session.apply(bad, load);
    REQUIRE(err.has_value());
    CHECK_THAT(*err, Catch::Contains("divisible"));
    CHECK(session.state().spec.groups == 3);
    CHECK(session.result().y.data == y);
    CHECK(session.generation() == gen);

    // The next good change still reuses x.
    core::State g2 = s;
    g2.spec.groups = 2;
    REQUIRE_FALSE(session.apply(g2, load).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
}

TEST_CASE("the session's shown tensors are its own x, y and the backend's device tensors, no copy",
          "[gpu][session][shown]") {
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    REQUIRE_FALSE(session.apply(generated_state(core::Method::Instance, {2, 3, 4, 4}), load).has_value());
    const session::ShownTensors& shown = session.shown();
    CHECK(&shown.x() == &session.x());
    CHECK(&shown.result() == &session.result());
    CHECK(&shown.x_device() == &session.x_device());
    CHECK(&shown.y_device() == &session.y_device());
    CHECK(shown.generation() == session.generation());
    CHECK(shown.method() == core::Method::Instance);
    CHECK_FALSE(shown.values_only());
    session.select(core::Index4{1, 2, 0, 3});
    CHECK(shown.selection() == session.state().selection);
    CHECK(shown.selected_stat() == std::optional<std::int64_t>(1 * 3 + 2));
    CHECK(shown.histograms().group_input.count == 16);
}

TEST_CASE("shown values: given tensors on their own device buffers, the engine's x and y kept",
          "[gpu][session][shown]") {
    ops::VulkanBackend backend(context());
    session::Session engine(backend);
    REQUIRE_FALSE(engine.apply(generated_state(core::Method::Layer, {2, 3, 4, 4}), load).has_value());
    const std::vector<float> x_before = engine.x().data, y_before = engine.result().y.data;
    const std::uint64_t gen = engine.generation();
    session::ShownValues v(engine);
    core::Tensor x = make_tensor({3, 2, 5, 5}, core::Init::Randn, 1),
                 y = make_tensor({3, 2, 5, 5}, core::Init::Randn, 2);
    v.show(x, y, core::make_layout(core::default_spec(core::Method::Instance), x.shape), core::Method::Instance);
    const session::ShownTensors& s = v.shown();
    CHECK(s.values_only());
    CHECK(on_device(s.x_device(), 150) == x.data);
    CHECK(on_device(s.y_device(), 150) == y.data);
    CHECK(s.histograms().input.count == 150);
    CHECK(s.histograms().input.min == Approx(*std::min_element(x.data.begin(), x.data.end())));
    CHECK(v.difference_histogram().count == 150);
    v.select(core::Index4{2, 1, 4, 4});
    CHECK(s.selected_stat() == std::optional<std::int64_t>(2 * 2 + 1));
    CHECK(s.histograms().group_output.count == 25);
    CHECK_THROWS_AS(v.select(core::Index4{3, 0, 0, 0}), core::InputError);
    v.set_bins(8);
    CHECK(s.histograms().output.bins.size() == 8);
    // The engine's own session is untouched, on the device too.
    CHECK(engine.generation() == gen);
    CHECK(on_device(engine.x_device(), x_before.size()) == x_before);
    CHECK(on_device(engine.y_device(), y_before.size()) == y_before);
}

TEST_CASE("a state computed for a view on the session's engine: its result, the engine's x and y kept",
          "[gpu][session][shown]") {
    ops::VulkanBackend backend(context());
    session::Session engine(backend);
    REQUIRE_FALSE(engine.apply(generated_state(core::Method::Batch, {2, 4, 3, 3}), load).has_value());
    const std::vector<float> y_before = engine.result().y.data;
    session::ShownValues v(engine);
    // A larger tensor re-creates the Normalizer's buffers: the engine's x and y go back into them.
    const std::uint64_t epoch = engine.shown().buffer_epoch();
    core::State group = session::with_groups(generated_state(core::Method::Group, {3, 8, 6, 5}), 2);
    core::Tensor x = io::load_tensor(group.source);
    REQUIRE_FALSE(v.compute(group, x).has_value());
    CHECK(v.shown().result().y.data == normalizer().run(x, group.spec).y.data);
    CHECK(on_device(v.shown().y_device(), x.data.size()) == v.shown().y().data);
    CHECK(v.shown().layout().stat_count == 3 * 2);
    CHECK(v.shown().method() == core::Method::Group);
    CHECK(on_device(engine.y_device(), y_before.size()) == y_before);
    CHECK(engine.shown().buffer_epoch() != epoch);
    // A refused state: its reason, the shown values as they were.
    const std::uint64_t gen = v.shown().generation();
    auto err = v.compute(session::with_groups(group, 3), x);
    REQUIRE(err.has_value());
    CHECK(err->find("divisible") != std::string::npos);
    CHECK(v.shown().generation() == gen);
    // The backward on the engine: ∂L/∂x as the test Backward's, the engine's y kept.
    const core::Tensor dy = make_tensor(x.shape, core::Init::Randn, 5);
    const core::GradResult g = engine.backward(group, x, dy);
    CHECK(g.dx.data == ops::run_backward(normalizer(), backward(), x, dy, group.spec).dx.data);
    CHECK(on_device(engine.y_device(), y_before.size()) == y_before);
    // The edit after it keeps x on the device.
    REQUIRE_FALSE(engine.apply(session::with_method(engine.state(), core::Method::Instance, 4), keep).has_value());
    CHECK(engine.last_x_upload_bytes() == 0);
    CHECK(engine.result().y.data == normalizer().run(engine.x(), core::default_spec(core::Method::Instance)).y.data);
}

TEST_CASE("a re-created device buffer has a new identity even where the driver hands back its handle",
          "[gpu][session][shown]") {
    // Each upload below outgrows the tensor's buffer: the old one is freed first, then a new one
    // made, so a driver may well return the freed handle (lavapipe does). The identity must change
    // every time, or a view keeps a binding to freed memory.
    ops::VulkanBackend backend(context());
    auto t = backend.make_tensor();
    std::vector<float> values(4, 1.0f);
    backend.upload({{t.get(), &values}});
    int same_handle = 0;
    for (int i = 0; i < 6; ++i) {
        const vk::Buffer handle = ops::vulkan_buffer(*t).handle();
        const std::uint64_t before = t->identity();
        values.resize(values.size() * 2, 2.0f);
        backend.upload({{t.get(), &values}});
        CHECK(t->identity() != before);
        if (ops::vulkan_buffer(*t).handle() == handle) ++same_handle;
    }
    INFO("re-creations that got the freed handle back: " << same_handle);
    CHECK(on_device(*t, values.size()) == values);

    // The same through a Session: a view's larger tensor re-creates the backend's x and y; the
    // shown tensors' buffer epoch tells the views to bind them again.
    session::Session engine(backend);
    REQUIRE_FALSE(engine.apply(generated_state(core::Method::Layer, {1, 2, 2, 2}), load).has_value());
    session::ShownValues v(engine);
    for (const std::int64_t c : {4, 8, 16}) {
        const std::uint64_t epoch = engine.shown().buffer_epoch();
        const std::uint64_t x_id = engine.x_device().identity(), y_id = engine.y_device().identity();
        const core::State big = generated_state(core::Method::Layer, {2, c, 5, 5});
        REQUIRE_FALSE(v.compute(big, io::load_tensor(big.source)).has_value());
        CHECK(engine.x_device().identity() != x_id);
        CHECK(engine.y_device().identity() != y_id);
        CHECK(engine.shown().buffer_epoch() != epoch);
    }
    CHECK(context().validation_messages() == 0);
}

TEST_CASE("an exercise's locks hold against every edit; a new exercise replaces it", "[gpu][session][exercise]") {
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    core::State s = generated_state(core::Method::Batch, {4, 3, 2, 2});
    s.exercise = core::make_exercise({"method"}, {"eps", "running_stats"});
    s.params.running_mean = {0.5f, -1.0f, 2.0f};
    REQUIRE_FALSE(session.apply(s, load).has_value());
    const std::vector<float> y = session.result().y.data;

    core::State layer = s;
    layer.spec = core::default_spec(core::Method::Layer);
    CHECK(session.apply(layer, load) == std::string("method is locked in this exercise"));
    core::State eps = s;
    eps.spec.eps = 0.5;
    CHECK(session.apply(eps, keep) == std::string("eps is locked in this exercise"));
    CHECK(session.train_step() == std::string("running_stats is locked in this exercise"));
    CHECK(session.reset_running() == std::string("running_stats is locked in this exercise"));
    CHECK(session.state().spec.method == core::Method::Batch);
    CHECK(session.state().spec.effective_eps() == 1e-5);
    CHECK(session.result().y.data == y);
    // What is not locked still changes.
    core::State mode = s;
    mode.spec.mode = core::Mode::Eval;
    CHECK_FALSE(session.apply(mode, keep).has_value());
    // An edit may change the exercise itself (the teacher's Exercise window), nothing it locks.
    core::State unlocked = session.state();
    unlocked.exercise = {};
    unlocked.spec.eps = 0.5;
    CHECK(session.apply(unlocked, keep) == std::string("eps is locked in this exercise"));
    // A new scene, lesson or experiment replaces the state and its exercise, even one with the
    // same exercise and another method.
    core::State next_scene = layer;
    next_scene.params = {};
    CHECK_FALSE(session.replace(next_scene, load).has_value());
    CHECK(session.state().spec.method == core::Method::Layer);
    CHECK(session.state().exercise == s.exercise);
}

TEST_CASE("SyncBN in the session: each mode's y on the GPU, the histograms and the reference check", "[gpu][session]") {
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    core::State s = generated_state(core::Method::Batch, {4, 3, 4, 4});
    for (core::SyncMode mode : {core::SyncMode::Sync, core::SyncMode::Local, core::SyncMode::Naive}) {
        s.spec.sync_devices = 2;
        s.spec.sync_mode = mode;
        INFO("mode " << core::sync_mode_name(mode));
        REQUIRE_FALSE(session.apply(s, load).has_value());
        const core::NormResult& r = session.result();
        REQUIRE(r.sync);
        const auto& want = mode == core::SyncMode::Sync    ? r.sync->y_sync
                           : mode == core::SyncMode::Local ? r.sync->y_local
                                                           : r.sync->y_naive;
        CHECK(r.y.data == want);
        CHECK(session.max_error_wait() <= 1e-5);  // against reference_sync
        // The output histogram reads the device's y: local's has mean 0 per device, so overall too.
        CHECK(session.histograms().output.count == 4 * 3 * 4 * 4);
        CHECK(std::abs(session.histograms().output.mean) <= 1e-4);
    }
    // Naive's y differs from sync's on a tensor whose devices' means differ.
    CHECK(session.result().sync->y_naive != session.result().sync->y_sync);
    // N = 4 and K = 3: refused, the previous state kept.
    core::State bad = s;
    bad.spec.sync_devices = 3;
    const auto err = session.apply(bad, load);
    REQUIRE(err.has_value());
    CHECK(err->find("divisible") != std::string::npos);
    CHECK(session.state().spec.sync_devices == 2);
}

TEST_CASE("an image under AdaIN: the style's statistics from the shaders, y as PyTorch's", "[gpu][session][image]") {
    const std::string golden = std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/images/";
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    core::State s;
    s.source.kind = core::TensorSource::Kind::Image;
    s.source.path = std::string(NORMLAB_SOURCE_DIR) + "/assets/images/content-stripes.png";
    s.spec = core::default_spec(core::Method::Instance);
    s.style_image = std::string(NORMLAB_SOURCE_DIR) + "/assets/images/style-sunset.png";
    REQUIRE_FALSE(session.apply(s, load).has_value());
    REQUIRE(session.style().has_value());
    CHECK(session.state().params.weight.empty());  // the state keeps its own γ/β; AdaIN's are derived
    const io::NpyArray want = io::read_npy(golden + "adain-rgb/y.npy");
    REQUIRE(session.result().y.data.size() == want.data.size());
    double worst = 0;
    for (std::size_t i = 0; i < want.data.size(); ++i)
        worst = std::max(worst, std::abs(double(session.result().y.data[i]) - double(want.data[i])));
    CHECK(worst <= 1e-5);
    CHECK(session.max_error_wait() < 1e-5);  // the float64 reference of the affine InstanceNorm it ran
    const auto expected = nlohmann::json::parse(io::read_file(golden + "adain-rgb/expected.json", 1 << 20));
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(session.style_stats().mean[c] == Approx(expected["style_mean"][c].get<double>()).margin(1e-6));
        CHECK(session.style_stats().stdev[c] == Approx(expected["style_std"][c].get<double>()).margin(1e-6));
        CHECK(session.result().mean[c] == Approx(expected["mean"][c].get<double>()).margin(1e-6));
    }

    // An edit under the same style keeps x on the device (the style's statistics are reused);
    // a new ε changes them, and computing them runs the normalizer on the style, so x goes up again.
    const std::vector<float> y_styled = session.result().y.data;
    core::State selected = s;
    selected.selection = core::Index4{0, 1, 2, 3};
    REQUIRE_FALSE(session.apply(selected, keep).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK(session.result().y.data == y_styled);
    REQUIRE_FALSE(session.apply(session::with_eps(s, 1e-3), keep).has_value());
    CHECK(session.last_x_upload_bytes() > 0);
    CHECK(session.max_error_wait() < 1e-5);
    REQUIRE_FALSE(session.apply(s, keep).has_value());

    // A gray style for an RGB content is refused; the AdaIN state stays.
    core::State gray = s;
    gray.style_image = golden + "gray.png";
    const auto err = session.apply(gray, load);
    REQUIRE(err.has_value());
    CHECK(err->find("--style-image has 1 channel but the content image has 3") != std::string::npos);
    CHECK(session.state().style_image == s.style_image);

    // Another method drops the style (a scene could not hold it), and the pictures' tensor stays.
    core::State batch = s;
    batch.spec = core::default_spec(core::Method::Batch);
    REQUIRE_FALSE(session.apply(batch, load).has_value());
    CHECK(session.state().style_image.empty());
    CHECK_FALSE(session.style().has_value());
}

TEST_CASE("a 1-D tensor and a normalized_shape of every dim in the session: one statistic, its histograms",
          "[gpu][session][ranks]") {
    ops::VulkanBackend backend(context());
    session::Session session(backend);
    core::State s = generated_state(core::Method::Layer, core::Shape4::vec(10));
    s.selection = core::Index4{0, 7, 0, 0};
    REQUIRE_FALSE(session.apply(s, load).has_value());
    CHECK(session.layout().stat_count == 1);
    CHECK(session.selected_stat() == std::optional<std::int64_t>{0});
    CHECK(session.histograms().has_group);
    CHECK(session.histograms().group_input.count == 10);
    CHECK(session.max_error_wait() <= 1e-5);
    // BatchNorm, InstanceNorm and GroupNorm refuse a 1-D tensor with PyTorch's text; the state stays.
    core::State batch = s;
    batch.spec = core::default_spec(core::Method::Batch);
    const auto err = session.apply(batch, keep);
    REQUIRE(err.has_value());
    CHECK_THAT(*err, Catch::Contains("expected 2D or 3D input (got 1D input)"));
    CHECK(session.state().spec.method == core::Method::Layer);
    core::State rms = s;
    rms.spec = core::default_spec(core::Method::Rms);
    REQUIRE_FALSE(session.apply(rms, keep).has_value());
    CHECK(session.last_x_upload_bytes() == 0);  // the vector stays on the GPU
    CHECK(session.result().mean_square.size() == 1);

    // LayerNorm over every dim of a 4-D tensor: the selected statistic spans all of it.
    core::State all = generated_state(core::Method::Layer, core::Shape4{2, 3, 4, 5});
    all.spec.normalized_shape = {2, 3, 4, 5};
    all.selection = core::Index4{1, 2, 3, 4};
    REQUIRE_FALSE(session.apply(all, load).has_value());
    CHECK(session.layout().stat_shape.empty());
    CHECK(session.histograms().group_input.count == 120);
    CHECK(session.max_error_wait() <= 1e-5);
}
