#include "sync_test.hpp"

#include "backend_checks.hpp"
#include "random_configs.hpp"

#include "normlab/core/error.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/tensor_init.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace normlab::web {
namespace {

using webgpu::WgpuBackend;

double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return INFINITY;
    double w = 0;
    for (std::size_t i = 0; i < a.size(); ++i) w = std::max(w, std::abs(static_cast<double>(a[i]) - b[i]));
    return w;
}

// tests/gpu/test_sync_bn.cpp's random cases (tests/random_configs: the same series).
void random_cases(webgpu::WgpuBackend& b, BackendChecks& t) {
    std::mt19937_64 rng(12);
    for (int i = 0; i < 24; ++i) {
        const test::SyncCase sc = test::random_sync_case(i, rng);
        const core::Tensor& x = sc.x;
        const core::NormSpec& spec = sc.spec;
        const core::NormParams& p = sc.params;
        t.start("random " + sc.name);
        try {
            const core::NormResult r = b.normalize(x, spec, p, {});
            const reference::ReferenceResult ref = reference::reference_sync(x, spec, p);
            t.expect(reference::max_abs_error(r.y.data, ref.y) <= 1e-5,
                     "y differs from the reference by " + std::to_string(reference::max_abs_error(r.y.data, ref.y)));
            t.expect(r.sync.has_value() && ref.stats.sync.has_value(), "no SyncBN statistics in the result");
            if (!r.sync || !ref.stats.sync) continue;
            const core::SyncStats &g = *r.sync, &e = *ref.stats.sync;
            t.close(g.shard_mean, e.shard_mean, 1e-5, "shard_mean");
            t.close(g.shard_var, e.shard_var, 1e-5, "shard_var");
            t.close(g.sync_var, e.sync_var, 1e-5, "sync_var");
            t.close(g.naive_var, e.naive_var, 1e-5, "naive_var");
            t.close(r.mean, ref.stats.mean, 1e-5, "mean");
            t.close(r.var, ref.stats.var, 1e-5, "var");
            t.close(r.running_mean, ref.stats.running_mean, 1e-5, "running_mean");
            t.close(r.running_var, ref.stats.running_var, 1e-5, "running_var");
            t.expect(r.num_batches_tracked == ref.stats.num_batches_tracked, "num_batches_tracked");
            t.expect(t.on_device(b.y_device(), r.y.data.size()) == r.y.data, "the device's y is not the chosen mode's");
        } catch (const std::exception& ex) {
            t.expect(false, std::string("threw: ") + ex.what());
        }
    }
}

// K = 1 is BatchNorm in every mode, sync is BatchNorm for any K; naive's variance misses exactly
// the variance of the shard means (here shard 1 shifted by 2, so it is far from 0).
void identities(webgpu::WgpuBackend& b, BackendChecks& t) {
    t.start("identities: K = 1 and sync are BatchNorm, naive misses the variance of the shard means");
    try {
        const core::Tensor x = make_tensor(core::Shape4{8, 3, 4, 4}, core::Init::Randn, 5);
        const core::NormResult plain = b.normalize(x, core::default_spec(core::Method::Batch), {}, {});
        for (std::int64_t K : {1, 2, 4, 8})
            for (core::SyncMode mode : {core::SyncMode::Sync, core::SyncMode::Local, core::SyncMode::Naive}) {
                if (K != 1 && mode != core::SyncMode::Sync) continue;
                core::NormSpec spec = core::default_spec(core::Method::Batch);
                spec.sync_devices = K;
                spec.sync_mode = mode;
                const core::NormResult r = b.normalize(x, spec, {}, {});
                const std::string what = "K " + std::to_string(K) + " " + core::sync_mode_name(mode);
                t.expect(max_diff(r.y.data, plain.y.data) <= 1e-5, what + ": y is not BatchNorm's");
                t.close(r.running_var, plain.running_var, 1e-6, what + ": running_var");
            }
        core::Tensor shifted = x;
        for (std::size_t i = shifted.data.size() / 2; i < shifted.data.size(); ++i) shifted.data[i] += 2.0f;
        core::NormSpec spec = core::default_spec(core::Method::Batch);
        spec.sync_devices = 2;
        const core::NormResult r = b.normalize(shifted, spec, {}, {});
        t.expect(r.sync.has_value(), "no SyncBN statistics");
        if (!r.sync) return;
        for (std::size_t c = 0; c < 3; ++c) {
            const double m0 = r.sync->shard_mean[c], m1 = r.sync->shard_mean[3 + c];
            const double var_of_means = (m0 - m1) * (m0 - m1) / 4;
            t.expect(var_of_means > 0.5, "the shifted shards' means are too close");
            t.expect(std::abs(r.sync->sync_var[c] - r.sync->naive_var[c] - var_of_means) <= 1e-5,
                     "sync σ² − naive σ² is not the variance of the shard means");
        }
    } catch (const std::exception& ex) {
        t.expect(false, std::string("threw: ") + ex.what());
    }
}

// A batch K does not divide, another method, K < 1: one line each, PyTorch-style, nothing run.
void refusals(webgpu::WgpuBackend& b, BackendChecks& t) {
    t.start("refusals: K not dividing N, another method, K < 1");
    const core::Tensor x = make_tensor(core::Shape4{4, 3, 2, 2}, core::Init::Randn, 1);
    auto refused = [&](core::NormSpec spec, const std::string& needle) {
        try {
            b.normalize(x, spec, {}, {});
            t.expect(false, "accepted; expected an error containing \"" + needle + "\"");
        } catch (const core::InputError& e) {
            const std::string m = e.what();
            t.expect(m.find(needle) != std::string::npos && m.find('\n') == std::string::npos,
                     "the error \"" + m + "\" is not one line containing \"" + needle + "\"");
        }
    };
    core::NormSpec spec = core::default_spec(core::Method::Batch);
    spec.sync_devices = 3;
    refused(spec, "divisible by 3");
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    layer.sync_devices = 2;
    refused(layer, "only used by batch normalization");
    spec.sync_devices = -1;
    refused(spec, ">= 1");
}

}  // namespace

nlohmann::json run_sync_tests(webgpu::WgpuBackend& backend) {
    BackendChecks t(backend);
    random_cases(backend, t);
    identities(backend, t);
    refusals(backend, t);
    return t.report();
}

}  // namespace normlab::web
