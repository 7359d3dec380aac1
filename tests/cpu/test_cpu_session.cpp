// SyncBN on the CPU backend's simulated devices against PyTorch (tests/golden/sync) and the float64
// reference (reference_sync) on the random series the GPU suites run (random_sync_case), and the app's model,
// engine/session's Session, running on the CPU backend: its result and float64 check, x kept across edits, the shown
// tensors and histograms, a secondary view's values, the backward, SyncBN, and its tensor limit.
#include <catch2/catch.hpp>

#include "cpu_support.hpp"
#include "generated_state.hpp"
#include "random_configs.hpp"

#include "normlab/reference/reference.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/cpu/cpu_backend.hpp"
#include "normlab/session/session.hpp"
#include "normlab/session/shown_values.hpp"
#include "normlab/io/scene_file.hpp"
#include "normlab/reference/grad_reference.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <random>

using namespace normlab;
using namespace normlab::test;

namespace {

const session::TensorChange keep = session::TensorChange::keep(), load = session::TensorChange::from_source();

std::vector<float> on_device(const plan::DeviceTensor& t, std::size_t n) {
    const cpu::CpuBuffer& b = cpu::cpu_values(t);
    return {b.data(), b.data() + std::min(n, b.size())};
}

}  // namespace

TEST_CASE("CPU SyncBN: random shapes, K, modes, train and eval against the float64 reference", "[cpu][sync]") {
    std::mt19937_64 rng(12);
    cpu::CpuBackend b;
    for (int t = 0; t < 24; ++t) {
        const SyncCase sc = random_sync_case(t, rng);
        INFO(sc.name);
        const core::NormResult r = b.normalize(sc.x, sc.spec, sc.params, {});
        const reference::ReferenceResult ref = reference::reference_sync(sc.x, sc.spec, sc.params);
        CHECK(reference::max_abs_error(r.y.data, ref.y) <= 1e-5);
        REQUIRE(r.sync);
        REQUIRE(ref.stats.sync);
        CHECK(max_rel_diff(r.sync->shard_mean, ref.stats.sync->shard_mean) <= 1e-5);
        CHECK(max_rel_diff(r.sync->shard_var, ref.stats.sync->shard_var) <= 1e-5);
        CHECK(max_rel_diff(r.sync->sync_var, ref.stats.sync->sync_var) <= 1e-5);
        CHECK(max_rel_diff(r.sync->naive_var, ref.stats.sync->naive_var) <= 1e-5);
        CHECK(max_rel_diff(r.mean, ref.stats.mean) <= 1e-5);
        CHECK(max_rel_diff(r.var, ref.stats.var) <= 1e-5);
        CHECK(max_rel_diff(r.running_mean, ref.stats.running_mean) <= 1e-5);
        CHECK(max_rel_diff(r.running_var, ref.stats.running_var) <= 1e-5);
        CHECK(r.num_batches_tracked == ref.stats.num_batches_tracked);
        CHECK(on_device(b.y_device(), r.y.data.size()) == r.y.data);  // the chosen mode's y stays
    }
}

TEST_CASE("CPU SyncBN: every mode matches PyTorch (tests/golden/sync)", "[cpu][sync][golden]") {
    using nlohmann::json;
    const std::string dir0 = kGoldenDir + "sync/";
    const auto load = [](const std::string& path) {
        std::ifstream in(path);
        REQUIRE(in.good());
        return json::parse(in);
    };
    const json cases = load(dir0 + "cases.json");
    REQUIRE(cases.size() >= 5);
    cpu::CpuBackend b;
    const auto doubles = [](const json& j) { return j.get<std::vector<double>>(); };
    for (const auto& c : cases) {
        const std::string name = c.at("name"), dir = dir0 + name + "/";
        const json expected = load(dir + "expected.json");
        const core::Tensor x = read_tensor(dir + "x.npy");
        core::NormParams p;
        if (c.at("affine").get<bool>()) {
            p.weight = io::read_npy(dir + "w.npy").data;
            p.bias = io::read_npy(dir + "b.npy").data;
        }
        p.running_mean = io::read_npy(dir + "rm.npy").data;
        p.running_var = io::read_npy(dir + "rv.npy").data;
        for (core::SyncMode mode : {core::SyncMode::Sync, core::SyncMode::Local, core::SyncMode::Naive}) {
            const std::string m = core::sync_mode_name(mode);
            INFO("case " << name << ", mode " << m);
            core::NormSpec spec = core::default_spec(core::Method::Batch);
            spec.affine = c.at("affine");
            spec.eps = c.at("eps").get<double>();
            spec.momentum = c.at("momentum").get<double>();
            spec.sync_devices = c.at("devices");
            spec.sync_mode = mode;
            const core::NormResult r = b.normalize(x, spec, p, {});
            REQUIRE(r.sync);
            CHECK(reference::max_abs_error(r.y.data, read_f64(dir + "y_" + m + ".npy")) <= 1e-5);
            CHECK(reference::max_abs_error(r.sync->y_sync, read_f64(dir + "y_sync.npy")) <= 1e-5);
            CHECK(reference::max_abs_error(r.sync->y_local, read_f64(dir + "y_local.npy")) <= 1e-5);
            CHECK(reference::max_abs_error(r.sync->y_naive, read_f64(dir + "y_naive.npy")) <= 1e-5);
            CHECK(max_rel_diff(r.sync->shard_mean, doubles(expected.at("shard_mean"))) <= 1e-5);
            CHECK(max_rel_diff(r.sync->shard_var, doubles(expected.at("shard_var"))) <= 1e-5);
            CHECK(max_rel_diff(r.mean, doubles(expected.at(m).at("mean"))) <= 1e-5);
            CHECK(max_rel_diff(r.var, doubles(expected.at(m).at("var"))) <= 1e-5);
            CHECK(max_rel_diff(r.running_mean, doubles(expected.at(m).at("running_mean"))) <= 1e-5);
            CHECK(max_rel_diff(r.running_var, doubles(expected.at(m).at("running_var"))) <= 1e-5);
        }
    }
}

TEST_CASE("Session on the CPU backend: result, float64 check, x kept across edits, histograms", "[cpu][session]") {
    cpu::CpuBackend backend;
    session::Session session(backend);
    core::State s = session::with_groups(generated_state(core::Method::Group, {3, 8, 6, 5}), 2);
    REQUIRE_FALSE(session.apply(s, load).has_value());
    CHECK(session.last_x_upload_bytes() == 3 * 8 * 6 * 5 * 4);
    CHECK(session.max_error_wait() <= 1e-5);
    CHECK(reference::Reference(session.x(), s.spec, {}).max_abs_error(session.result().y.data) <= 1e-5);
    CHECK(on_device(session.x_device(), session.x().data.size()) == session.x().data);
    CHECK(on_device(session.y_device(), session.x().data.size()) == session.result().y.data);
    CHECK(session.histograms().input.count == 3 * 8 * 6 * 5);
    CHECK(std::abs(session.histograms().output.mean) <= 1e-5);

    const core::State g4 = session::with_groups(s, 4);
    REQUIRE_FALSE(session.apply(g4, keep).has_value());
    CHECK(session.last_x_upload_bytes() == 0);
    CHECK(session.max_error_wait() <= 1e-5);
    REQUIRE_FALSE(session.apply(session::with_method(g4, core::Method::Layer, 8), keep).has_value());
    CHECK(session.result().layout.stat_count == 3);
    session.select(core::Index4{1, 2, 0, 3});
    CHECK(session.shown().histograms().group_input.count == 8 * 6 * 5);
    // A refused edit keeps the state and numbers.
    const auto y_before = session.result().y.data;
    REQUIRE(
        session.apply(session::with_groups(generated_state(core::Method::Group, {3, 8, 6, 5}), 3), load).has_value());
    CHECK(session.result().y.data == y_before);
}

TEST_CASE("Session on the CPU backend: a view's values, the backward, SyncBN and the tensor limit", "[cpu][session]") {
    cpu::CpuBackend backend("CPU", 4096);
    session::Session engine(backend);
    REQUIRE_FALSE(engine.apply(generated_state(core::Method::Batch, {4, 3, 4, 4}), load).has_value());
    const std::vector<float> y_before = engine.result().y.data;
    session::ShownValues v(engine);
    const core::State inst = generated_state(core::Method::Instance, {2, 3, 5, 5});
    const core::Tensor x = io::load_tensor(inst.source);
    REQUIRE_FALSE(v.compute(inst, x).has_value());
    CHECK(reference::Reference(x, inst.spec, {}).max_abs_error(v.shown().result().y.data) <= 1e-5);
    CHECK(on_device(v.shown().y_device(), x.data.size()) == v.shown().y().data);
    CHECK(on_device(engine.y_device(), y_before.size()) == y_before);  // the engine's y back
    const core::Tensor dy = make_tensor(x.shape, core::Init::Randn, 5);
    const core::GradResult g = engine.backward(inst, x, dy);
    CHECK(rel_err(g.dx.data, reference::reference_backward(reference::Reference(x, inst.spec, {}), dy).dx) <= 1e-4);
    CHECK(on_device(engine.y_device(), y_before.size()) == y_before);

    core::State sync = generated_state(core::Method::Batch, {4, 3, 4, 4});
    sync.spec.sync_devices = 2;
    sync.spec.sync_mode = core::SyncMode::Naive;
    REQUIRE_FALSE(engine.apply(sync, load).has_value());
    REQUIRE(engine.result().sync);
    CHECK(engine.result().y.data == engine.result().sync->y_naive);
    CHECK(engine.max_error_wait() <= 1e-5);

    // 2·3·32·32 = 6144 elements on a backend of 4096: refused in one line, the state kept.
    const auto err = engine.apply(generated_state(core::Method::Batch, {2, 3, 32, 32}), load);
    REQUIRE(err.has_value());
    CHECK(err->find("4096") != std::string::npos);
    CHECK(engine.state().spec.sync_devices == 2);
}
