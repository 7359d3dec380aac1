// The app's state logic without a window (views/session.hpp): apply a state, keep the tensor on
// the GPU across changes of method, G, eps and γ, refuse a bad value and keep the old state;
// an image under AdaIN against PyTorch's golden data.
#include <catch2/catch.hpp>

#include "../support.hpp"
#include "session.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/npy.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

using namespace normlab;
using namespace normlab::test;

namespace {
State generated(Method m, Shape4 shape) {
    State s;
    s.source.kind = TensorSource::Kind::Generated;
    s.source.shape = shape;
    s.source.seed = 11;
    s.spec = default_spec(m);
    return s;
}
}  // namespace

TEST_CASE("x stays on the GPU when only the method, G, eps or γ change", "[gpu][session]") {
    app::Session session(context());
    State s = generated(Method::Group, {3, 8, 6, 5});
    s.spec.groups = 2;
    REQUIRE_FALSE(session.apply(s).has_value());
    const std::uint64_t x_bytes = 3 * 8 * 6 * 5 * 4;
    CHECK(session.last_x_upload_bytes() == x_bytes);

    State g4 = s;
    g4.spec.groups = 4;
    REQUIRE_FALSE(session.apply(g4).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK(session.result().y.data == normalizer().run(session.x(), g4.spec).y.data);

    State eps = g4;
    eps.spec.eps = 1e-2;
    eps.params.weight.assign(8, 2.0f);
    REQUIRE_FALSE(session.apply(eps).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK(session.result().y.data == normalizer().run(session.x(), eps.spec, eps.params).y.data);

    State layer = eps;
    layer.spec = default_spec(Method::Layer);
    REQUIRE_FALSE(session.apply(layer).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK(session.max_error_wait() <= 1e-5);
    // The histograms read the Normalizer's own x and y: every element counted.
    CHECK(session.histograms().input.count == 3 * 8 * 6 * 5);
    CHECK(session.histograms().output.count == 3 * 8 * 6 * 5);

    State other = layer;
    other.source.seed = 12;  // a new tensor is uploaded
    REQUIRE_FALSE(session.apply(other).has_value());
    CHECK(session.last_x_upload_bytes() == x_bytes);
    CHECK(context().validation_messages() == 0);
}

TEST_CASE("a refused value keeps the previous state and numbers", "[gpu][session]") {
    app::Session session(context());
    State s = generated(Method::Group, {2, 6, 4, 4});
    s.spec.groups = 3;
    REQUIRE_FALSE(session.apply(s).has_value());
    const std::vector<float> y = session.result().y.data;
    const std::uint64_t gen = session.generation();

    State bad = s;
    bad.spec.groups = 4;  // does not divide C = 6
    auto err = session.apply(bad);
    REQUIRE(err.has_value());
    CHECK_THAT(*err, Catch::Contains("divisible"));
    CHECK(session.state().spec.groups == 3);
    CHECK(session.result().y.data == y);
    CHECK(session.generation() == gen);

    // The next good change still reuses x.
    State g2 = s;
    g2.spec.groups = 2;
    REQUIRE_FALSE(session.apply(g2).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
}

TEST_CASE("a shown pair of tensors is on the GPU as given", "[gpu][session]") {
    app::Session session(context());
    Tensor x = make_tensor({2, 3, 4, 4}, Init::Randn, 1), y = make_tensor({2, 3, 4, 4}, Init::Randn, 2);
    session.show_values(x, y, make_layout(default_spec(Method::Instance), x.shape));
    CHECK(session.values_only());
    CHECK(session.histograms().input.count == 96);
    CHECK(session.difference_histogram().count == 96);
}

TEST_CASE("an exercise's locks hold against every edit; a new exercise replaces it", "[gpu][session][exercise]") {
    app::Session session(context());
    State s = generated(Method::Batch, {4, 3, 2, 2});
    s.exercise = make_exercise({"method"}, {"eps", "running_stats"});
    s.params.running_mean = {0.5f, -1.0f, 2.0f};
    REQUIRE_FALSE(session.apply(s).has_value());
    const std::vector<float> y = session.result().y.data;

    State layer = s;
    layer.spec = default_spec(Method::Layer);
    CHECK(session.apply(layer) == std::string("method is locked in this exercise"));
    State eps = s;
    eps.spec.eps = 0.5;
    CHECK(session.apply(eps, session.x()) == std::string("eps is locked in this exercise"));
    CHECK(session.train_step() == std::string("running_stats is locked in this exercise"));
    CHECK(session.reset_running() == std::string("running_stats is locked in this exercise"));
    CHECK(session.state().spec.method == Method::Batch);
    CHECK(session.state().spec.effective_eps() == 1e-5);
    CHECK(session.result().y.data == y);
    // What is not locked still changes.
    State mode = s;
    mode.spec.mode = Mode::Eval;
    CHECK_FALSE(session.apply(mode, session.x()).has_value());
    // An edit may change the exercise itself (the teacher's Exercise window), nothing it locks.
    State unlocked = session.state();
    unlocked.exercise = {};
    unlocked.spec.eps = 0.5;
    CHECK(session.apply(unlocked, session.x()) == std::string("eps is locked in this exercise"));
    // A new scene, lesson or experiment replaces the state and its exercise, even one with the
    // same exercise and another method.
    State next_scene = layer;
    next_scene.params = {};
    CHECK_FALSE(session.replace(next_scene).has_value());
    CHECK(session.state().spec.method == Method::Layer);
    CHECK(session.state().exercise == s.exercise);
}

TEST_CASE("SyncBN in the session: each mode's y on the GPU, the histograms and the reference check", "[gpu][session]") {
    app::Session session(context());
    State s = generated(Method::Batch, {4, 3, 4, 4});
    for (SyncMode mode : {SyncMode::Sync, SyncMode::Local, SyncMode::Naive}) {
        s.spec.sync_devices = 2;
        s.spec.sync_mode = mode;
        INFO("mode " << sync_mode_name(mode));
        REQUIRE_FALSE(session.apply(s).has_value());
        const NormResult& r = session.result();
        REQUIRE(r.sync);
        const auto& want = mode == SyncMode::Sync    ? r.sync->y_sync
                           : mode == SyncMode::Local ? r.sync->y_local
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
    State bad = s;
    bad.spec.sync_devices = 3;
    const auto err = session.apply(bad);
    REQUIRE(err.has_value());
    CHECK(err->find("divisible") != std::string::npos);
    CHECK(session.state().spec.sync_devices == 2);
}

TEST_CASE("an image under AdaIN: the style's statistics from the shaders, y as PyTorch's", "[gpu][session][image]") {
    const std::string golden = std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/images/";
    app::Session session(context());
    State s;
    s.source.kind = TensorSource::Kind::Image;
    s.source.path = std::string(NORMLAB_SOURCE_DIR) + "/assets/images/content-stripes.png";
    s.spec = default_spec(Method::Instance);
    s.style_image = std::string(NORMLAB_SOURCE_DIR) + "/assets/images/style-sunset.png";
    REQUIRE_FALSE(session.apply(s).has_value());
    REQUIRE(session.style().has_value());
    CHECK(session.state().params.weight.empty());  // the state keeps its own γ/β; AdaIN's are derived
    const NpyArray want = read_npy(golden + "adain-rgb/y.npy");
    REQUIRE(session.result().y.data.size() == want.data.size());
    double worst = 0;
    for (std::size_t i = 0; i < want.data.size(); ++i)
        worst = std::max(worst, std::abs(double(session.result().y.data[i]) - double(want.data[i])));
    CHECK(worst <= 1e-5);
    CHECK(session.max_error_wait() < 1e-5);  // the float64 reference of the affine InstanceNorm it ran
    const auto expected = nlohmann::json::parse(read_file(golden + "adain-rgb/expected.json", 1 << 20));
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(session.style_stats().mean[c] == Approx(expected["style_mean"][c].get<double>()).margin(1e-6));
        CHECK(session.style_stats().stdev[c] == Approx(expected["style_std"][c].get<double>()).margin(1e-6));
        CHECK(session.result().mean[c] == Approx(expected["mean"][c].get<double>()).margin(1e-6));
    }

    // A gray style for an RGB content is refused; the AdaIN state stays.
    State gray = s;
    gray.style_image = golden + "gray.png";
    const auto err = session.apply(gray);
    REQUIRE(err.has_value());
    CHECK(err->find("--style-image has 1 channel but the content image has 3") != std::string::npos);
    CHECK(session.state().style_image == s.style_image);

    // Another method drops the style (a scene could not hold it), and the pictures' tensor stays.
    State batch = s;
    batch.spec = default_spec(Method::Batch);
    REQUIRE_FALSE(session.apply(batch).has_value());
    CHECK(session.state().style_image.empty());
    CHECK_FALSE(session.style().has_value());
}
