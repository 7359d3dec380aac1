// The CPU backend's backward (CpuBackend::backward, L = Σ dy⊙y) against reference_backward on the
// random configurations of the GPU suites, and against PyTorch autograd's golden fixtures
// (tests/golden/grad), with tests/gpu/test_backward.cpp's tolerances.
#include <catch2/catch.hpp>

#include "cpu_support.hpp"
#include "random_configs.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/grad.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/cpu/cpu_backend.hpp"
#include "normlab/reference/grad_reference.hpp"

#include <nlohmann/json.hpp>

#include <random>

using namespace normlab;
using namespace normlab::test;

namespace {

void check_random_grad(const std::vector<std::int64_t>& sizes, int cases, std::uint64_t seed, std::int64_t max_numel,
                       int rank = 4) {
    cpu::CpuBackend b;
    std::mt19937_64 rng(seed);
    int done = 0, runs = 0;
    while (done < cases) {
        const core::Shape4 s = random_shape(rank, sizes, rng);
        if (s.numel() > max_numel) continue;
        for (core::Method m : {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                               core::Method::Rms}) {
            auto [spec, params] = random_config(m, s, rng);
            if (!valid(m, s, spec)) continue;
            const core::Tensor x = make_tensor(s, core::Init::Randn, rng());
            const core::Tensor dy = make_tensor(s, core::Init::Randn, rng());
            const core::GradResult g = b.backward(x, dy, spec, params);
            const reference::GradReference ref =
                reference::reference_backward(reference::Reference(x, spec, params), dy);
            INFO(describe(s, spec));
            CHECK(rel_err(g.dx.data, ref.dx) <= 1e-4);
            CHECK(g.dweight.size() == ref.dweight.size());
            CHECK(g.dbias.size() == ref.dbias.size());
            CHECK(rel_err(g.dweight, ref.dweight) <= 1e-4);
            CHECK(rel_err(g.dbias, ref.dbias) <= 1e-4);
            const auto S = static_cast<std::size_t>(core::make_layout(spec, s).stat_count);
            CHECK(g.mean_g.size() == (spec.uses_batch_stats() ? S : 0u));
            ++runs;
        }
        ++done;
    }
    CHECK(runs >= cases * 2);
}

}  // namespace

TEST_CASE("CPU backward: random shapes of every rank against the float64 reference", "[cpu][grad][random]") {
    check_random_grad({1, 2, 3, 5, 7, 8, 13}, 30, 707, 1 << 16);
    check_random_grad({1, 2, 3, 5, 8, 13, 64, 97}, 20, 808, 1 << 16, 2);
    check_random_grad({1, 2, 3, 5, 8, 13, 64}, 20, 909, 1 << 16, 3);
    check_random_grad({1, 2, 3, 5, 7}, 20, 1010, 1 << 16, 5);
    check_random_grad({1, 3, 16, 31, 64, 97}, 4, 1111, 1 << 20);
}

TEST_CASE("CPU backward: PyTorch autograd golden fixtures (tests/golden/grad)", "[cpu][grad][golden]") {
    using nlohmann::json;
    const std::string dir = kGoldenDir + "grad/";
    std::ifstream in(dir + "cases.json");
    REQUIRE(in.good());
    const json cases = json::parse(in);
    REQUIRE(cases.size() >= 20);
    cpu::CpuBackend b;
    for (const auto& c : cases) {
        const std::string name = c.at("name");
        const std::string d = dir + name + "/";
        INFO("case " << name);
        core::NormSpec spec = core::default_spec(*core::parse_method(c.at("norm")));
        spec.eps = c.at("eps").get<double>();
        spec.affine = c.at("affine").get<bool>();
        if (c.contains("groups")) spec.groups = c.at("groups");
        if (c.contains("normalized_shape"))
            spec.normalized_shape = c.at("normalized_shape").get<std::vector<std::int64_t>>();
        if (c.contains("bias")) spec.bias = c.at("bias").get<bool>();
        if (c.contains("mode")) spec.mode = *core::parse_mode(c.at("mode"));
        const auto files = c.at("files").get<std::vector<std::string>>();
        const auto has = [&](const char* f) { return std::find(files.begin(), files.end(), f) != files.end(); };
        core::NormParams p;
        if (has("weight.npy")) p.weight = io::read_npy(d + "weight.npy").data;
        if (has("bias.npy")) p.bias = io::read_npy(d + "bias.npy").data;
        if (has("running_mean.npy")) p.running_mean = io::read_npy(d + "running_mean.npy").data;
        if (has("running_var.npy")) p.running_var = io::read_npy(d + "running_var.npy").data;
        const core::Tensor x = read_tensor(d + "x.npy"), dy = read_tensor(d + "dy.npy");
        const core::GradResult g = b.backward(x, dy, spec, p);
        // The x = 1e4 + 0.1·randn cases within 1e-3 of max |dx|; the others within 1e-5.
        const double tol = c.at("offset").get<bool>() ? 1e-3 : 1e-5;
        const auto dx = read_f64(d + "dx.npy");
        double m = 0;
        for (double v : dx) m = std::max(m, std::abs(v));
        CHECK(reference::max_abs_error(g.dx.data, dx) <= tol * m);
        CHECK(g.dweight.empty() == !spec.has_weight());
        CHECK(g.dbias.empty() == !spec.has_bias());
        if (spec.has_weight()) CHECK(rel_err(g.dweight, read_f64(d + "dweight.npy")) <= tol);
        if (spec.has_bias()) CHECK(rel_err(g.dbias, read_f64(d + "dbias.npy")) <= tol);
    }
}

TEST_CASE("CPU backward: a dy of another shape is refused; afterwards x and y are that run's", "[cpu][grad]") {
    cpu::CpuBackend b;
    const core::Tensor x = make_tensor({2, 3, 4, 4}, core::Init::Randn, 3);
    const core::Tensor wrong = make_tensor({2, 3, 4, 5}, core::Init::Randn, 4);
    CHECK_THROWS_AS(b.backward(x, wrong, core::default_spec(core::Method::Batch), {}), core::InputError);
    const core::Tensor dy = make_tensor(x.shape, core::Init::Randn, 5);
    b.backward(x, dy, core::default_spec(core::Method::Layer), {});
    const cpu::CpuBuffer& on_device = cpu::cpu_values(b.x_device());
    CHECK(std::equal(x.data.begin(), x.data.end(), on_device.data()));
    const core::NormResult fwd = b.normalize(x, core::default_spec(core::Method::Layer), {}, {});
    CHECK(std::equal(fwd.y.data.begin(), fwd.y.data.end(), cpu::cpu_values(b.y_device()).data()));
}
