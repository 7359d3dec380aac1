// SyncBN on K simulated devices (spec.sync_devices): the GPU's shard statistics, all-reduce and
// each mode's y against PyTorch's golden fixtures (tests/golden/make_golden_sync.py) and against
// the float64 reference (reference_sync), plus the identities the three modes must satisfy.
#include <catch2/catch.hpp>

#include "../support.hpp"
#include "normlab/core/error.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/ops/sync_bn.hpp"
#include "normlab/core/tensor_init.hpp"
#include "../random_configs.hpp"

#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <random>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

namespace {

const std::string kDir = std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/sync/";

json load_json(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    return json::parse(in);
}

// A float64 .npy's values, exactly (npy.hpp converts to float32).
std::vector<double> read_f64(const std::string& path, std::size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string raw((std::istreambuf_iterator<char>(in)), {});
    REQUIRE(raw.size() >= n * 8);
    std::vector<double> v(n);
    std::memcpy(v.data(), raw.data() + raw.size() - n * 8, n * 8);
    return v;
}

double worst(const std::vector<float>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    double w = 0;
    for (std::size_t i = 0; i < got.size(); ++i) w = std::max(w, std::abs(static_cast<double>(got[i]) - want[i]));
    return w;
}

void check_close(const std::vector<double>& got, const std::vector<double>& want, double tol, const char* what) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO(what << "[" << i << "] got " << got[i] << " want " << want[i]);
        CHECK(std::abs(got[i] - want[i]) <= tol * std::max(1.0, std::abs(want[i])));
    }
}

}  // namespace

TEST_CASE("SyncBN: every mode matches PyTorch (tests/golden/sync)", "[golden][gpu][sync]") {
    const json cases = load_json(kDir + "cases.json");
    REQUIRE(cases.size() >= 5);
    ops::SyncBatchNorm sync(normalizer());
    for (const auto& c : cases) {
        const std::string name = c.at("name");
        const std::string dir = kDir + name + "/";
        const json expected = load_json(dir + "expected.json");
        const auto xn = io::read_npy(dir + "x.npy");
        core::Tensor x;
        x.shape = core::Shape4::from_dims(xn.shape);
        x.data = xn.data;
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
            const core::NormResult r = sync.run(x, spec, p);
            REQUIRE(r.sync);
            CHECK(worst(r.y.data, read_f64(dir + "y_" + m + ".npy", x.data.size())) <= 1e-5);
            // Every run computes all three modes' y.
            CHECK(worst(r.sync->y_sync, read_f64(dir + "y_sync.npy", x.data.size())) <= 1e-5);
            CHECK(worst(r.sync->y_local, read_f64(dir + "y_local.npy", x.data.size())) <= 1e-5);
            CHECK(worst(r.sync->y_naive, read_f64(dir + "y_naive.npy", x.data.size())) <= 1e-5);
            check_close(r.sync->shard_mean, expected.at("shard_mean"), 1e-5, "shard_mean");
            check_close(r.sync->shard_var, expected.at("shard_var"), 1e-5, "shard_var");
            const json& e = expected.at(m);
            check_close(r.mean, e.at("mean"), 1e-5, "mean");
            check_close(r.var, e.at("var"), 1e-5, "var");
            check_close(r.running_mean, e.at("running_mean"), 1e-5, "running_mean");
            check_close(r.running_var, e.at("running_var"), 1e-5, "running_var");
            // The naive error is the variance of the shard means, channel by channel.
            std::vector<double> diff;
            for (std::size_t i = 0; i < r.sync->sync_var.size(); ++i)
                diff.push_back(r.sync->sync_var[i] - r.sync->naive_var[i]);
            check_close(diff, expected.at("var_of_shard_means"), 1e-5, "sync var - naive var");
        }
    }
}

TEST_CASE("SyncBN: GPU against the float64 reference, random shapes, K, modes, train and eval", "[gpu][sync][random]") {
    std::mt19937_64 rng(12);
    ops::SyncBatchNorm sync(normalizer());
    for (int t = 0; t < 24; ++t) {
        const SyncCase sc = random_sync_case(t, rng);
        const core::Tensor& x = sc.x;
        const core::NormSpec& spec = sc.spec;
        const core::NormParams& p = sc.params;
        INFO(sc.name);
        const core::NormResult r = sync.run(x, spec, p);
        const reference::ReferenceResult ref = reference::reference_sync(x, spec, p);
        CHECK(reference::max_abs_error(r.y.data, ref.y) <= 1e-5);
        REQUIRE(r.sync);
        REQUIRE(ref.stats.sync);
        check_close(r.sync->shard_mean, ref.stats.sync->shard_mean, 1e-5, "shard_mean");
        check_close(r.sync->shard_var, ref.stats.sync->shard_var, 1e-5, "shard_var");
        check_close(r.sync->sync_var, ref.stats.sync->sync_var, 1e-5, "sync_var");
        check_close(r.sync->naive_var, ref.stats.sync->naive_var, 1e-5, "naive_var");
        check_close(r.mean, ref.stats.mean, 1e-5, "mean");
        check_close(r.var, ref.stats.var, 1e-5, "var");
        check_close(r.running_mean, ref.stats.running_mean, 1e-5, "running_mean");
        check_close(r.running_var, ref.stats.running_var, 1e-5, "running_var");
        CHECK(r.num_batches_tracked == ref.stats.num_batches_tracked);
        // The device's y is the chosen mode's (the app's heatmap reads it there).
        std::vector<float> dev(r.y.data.size());
        std::memcpy(dev.data(), normalizer().y_buffer().data() ? normalizer().y_buffer().data() : r.y.data.data(),
                    dev.size() * 4);
        CHECK(dev == r.y.data);
    }
}

TEST_CASE("SyncBN identities: K = 1 is BatchNorm in every mode; sync is BatchNorm for any K", "[gpu][sync]") {
    ops::SyncBatchNorm sync(normalizer());
    const core::Tensor x = make_tensor(core::Shape4{8, 3, 4, 4}, core::Init::Randn, 5);
    const core::NormResult plain = normalizer().run(x, core::default_spec(core::Method::Batch));
    for (std::int64_t K : {1, 2, 4, 8})
        for (core::SyncMode mode : {core::SyncMode::Sync, core::SyncMode::Local, core::SyncMode::Naive}) {
            if (K == 8 && mode != core::SyncMode::Sync) continue;  // one sample a device: no local y to compare
            core::NormSpec spec = core::default_spec(core::Method::Batch);
            spec.sync_devices = K;
            spec.sync_mode = mode;
            const core::NormResult r = sync.run(x, spec);
            INFO("K " << K << " mode " << core::sync_mode_name(mode));
            if (K == 1 || mode == core::SyncMode::Sync) {
                double w = 0;
                for (std::size_t i = 0; i < x.data.size(); ++i)
                    w = std::max(w, std::abs(static_cast<double>(r.y.data[i]) - plain.y.data[i]));
                CHECK(w <= 1e-5);
                check_close(r.running_var, plain.running_var, 1e-6, "running_var");
            }
        }
    // The naive variance is smaller by the variance of the shard means, which differs from 0
    // whenever the devices' means differ (here: shard 1 shifted by 2).
    core::Tensor shifted = x;
    for (std::size_t i = shifted.data.size() / 2; i < shifted.data.size(); ++i) shifted.data[i] += 2.0f;
    core::NormSpec spec = core::default_spec(core::Method::Batch);
    spec.sync_devices = 2;
    const core::NormResult r = sync.run(shifted, spec);
    for (std::size_t c = 0; c < 3; ++c) {
        const double m0 = r.sync->shard_mean[c], m1 = r.sync->shard_mean[3 + c];
        const double var_of_means = (m0 - m1) * (m0 - m1) / 4;
        CHECK(var_of_means > 0.5);
        CHECK(std::abs(r.sync->sync_var[c] - r.sync->naive_var[c] - var_of_means) <= 1e-5);
        CHECK(std::abs(r.sync->sync_mean[c] - r.sync->naive_mean[c]) <= 1e-5);  // equal shards: same mean
    }
}

TEST_CASE("SyncBN refuses a batch K does not divide, another method, K < 1", "[gpu][sync]") {
    ops::SyncBatchNorm sync(normalizer());
    const core::Tensor x = make_tensor(core::Shape4{4, 3, 2, 2}, core::Init::Randn, 1);
    core::NormSpec spec = core::default_spec(core::Method::Batch);
    spec.sync_devices = 3;
    CHECK_THROWS_WITH(sync.run(x, spec), Catch::Contains("divisible by 3") && Catch::Contains("N = 4"));
    spec.sync_devices = -1;
    CHECK_THROWS_AS(sync.run(x, spec), core::InputError);
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    layer.sync_devices = 2;
    CHECK_THROWS_WITH(sync.run(x, layer), Catch::Contains("batch normalization"));
    // One value per channel on each device in train mode: PyTorch's BatchNorm refuses it.
    spec.sync_devices = 4;
    CHECK_THROWS_WITH(sync.run(make_tensor(core::Shape4{4, 3, 1, 1}, core::Init::Randn, 1), spec),
                      Catch::Contains("more than 1 value per channel"));
}
