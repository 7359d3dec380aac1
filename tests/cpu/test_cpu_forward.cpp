// The CPU backend's forward (engine/cpu: CpuBackend::normalize) against the float64 reference on the
// random configurations the GPU suites run (tests/random_configs: every method and flag, ranks 2 to
// 5, dims of 1, odd and prime sizes), statistics of a million elements, values far from 0, NaN and
// Inf, and PyTorch's golden fixtures (tests/golden/cases), with the GPU suites' tolerances.
#include <catch2/catch.hpp>

#include "cpu_support.hpp"
#include "random_configs.hpp"

#include "normlab/core/error.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/cpu/cpu_backend.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <random>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

namespace {

struct Errors {
    double y = 0, mean = 0, var = 0, running = 0;
};

Errors compare_cpu(cpu::CpuBackend& b, const core::Tensor& x, const core::NormSpec& spec,
                   const core::NormParams& params = {}) {
    const core::NormResult r = b.normalize(x, spec, params, {});
    const reference::Reference ref(x, spec, params);
    const core::NormResult& rs = ref.stats();
    Errors e;
    e.y = ref.max_abs_error(r.y.data);
    if (spec.method == core::Method::Rms) {
        e.mean = max_rel_diff(r.mean_square, rs.mean_square);
    } else {
        for (std::size_t s = 0; s < r.mean.size(); ++s)
            if (!(std::isnan(r.mean[s]) && std::isnan(rs.mean[s])))
                e.mean = std::max(e.mean, std::abs(r.mean[s] - rs.mean[s]));
        if (r.mean.size() != rs.mean.size()) e.mean = INFINITY;
        e.var = max_rel_diff(r.var, rs.var);
    }
    e.running = std::max(max_rel_diff(r.running_mean, rs.running_mean), max_rel_diff(r.running_var, rs.running_var));
    return e;
}

void check_random(const std::vector<std::int64_t>& sizes, int cases, std::uint64_t seed, std::int64_t max_numel,
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
            const Errors e = compare_cpu(b, x, spec, params);
            INFO(describe(s, spec));
            CHECK(e.y <= 1e-4);
            CHECK(e.mean <= 1e-5);
            CHECK(e.var <= 1e-5);
            CHECK(e.running <= 1e-5);
            ++runs;
        }
        ++done;
    }
    CHECK(runs >= cases * 2);  // most configurations are valid: the loop really compared
}

const core::Method kMethods[] = {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                                 core::Method::Rms};

}  // namespace

TEST_CASE("CPU forward: random small 4-D shapes with dims of 1, odd and prime sizes", "[cpu][random]") {
    check_random({1, 2, 3, 5, 7, 8, 13}, 40, 101, 1 << 16);
}

TEST_CASE("CPU forward: random 2-D, 3-D and 5-D shapes", "[cpu][random]") {
    check_random({1, 2, 3, 5, 8, 13, 64, 97, 257}, 30, 505, 1 << 16, 2);
    check_random({1, 2, 3, 5, 8, 13, 64, 97}, 30, 404, 1 << 16, 3);
    check_random({1, 2, 3, 5, 7, 8}, 30, 606, 1 << 16, 5);
}

TEST_CASE("CPU forward: random medium shapes and statistics of a million elements", "[cpu][random]") {
    check_random({1, 3, 16, 31, 64, 97}, 6, 202, 1 << 20);
    cpu::CpuBackend b;
    const core::Tensor x = make_tensor({2, 4, 384, 384}, core::Init::Randn, 303);
    for (core::Method m : kMethods) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 2;
        const Errors e = compare_cpu(b, x, spec);
        INFO(describe(x.shape, spec));
        CHECK(e.y <= 1e-4);
        CHECK(e.var <= 1e-5);
    }
}

TEST_CASE("CPU forward: values far from 0 and an outlier as the shift K match float64", "[cpu][numerics]") {
    cpu::CpuBackend b;
    for (bool outlier_first : {false, true}) {
        core::Tensor x = make_tensor({2, 4, 96, 96}, core::Init::Randn, outlier_first ? 506 : 505);
        if (outlier_first)
            x.data[0] = 1e4f;
        else
            for (auto& v : x.data) v = 1e4f + 0.1f * v;
        for (core::Method m : kMethods) {
            core::NormSpec spec = core::default_spec(m);
            if (m == core::Method::Group) spec.groups = 2;
            const Errors e = compare_cpu(b, x, spec);
            INFO((outlier_first ? "x[0] = 1e4, " : "1e4 + 0.1 randn, ") << describe(x.shape, spec));
            CHECK(e.y <= 1e-3);
            CHECK(e.var <= 1e-6);
            if (outlier_first) CHECK(e.mean <= 2e-3);
        }
    }
}

TEST_CASE("CPU forward: NaN and Inf poison their own statistic only; a constant tensor gives β", "[cpu][numerics]") {
    cpu::CpuBackend b;
    core::Tensor x = make_tensor({2, 4, 3, 3}, core::Init::Randn, 606);
    x.data[5] = std::numeric_limits<float>::quiet_NaN();  // sample 0, channel 0
    x.data[static_cast<std::size_t>(x.offset(1, 3, 2, 2))] = std::numeric_limits<float>::infinity();
    for (core::Method m : kMethods) {
        const core::NormSpec spec = core::default_spec(m);
        const core::NormResult r = b.normalize(x, spec, {}, {});
        CHECK(r.nonfinite_inputs == 2);
        INFO(describe(x.shape, spec));
        CHECK(reference::Reference(x, spec, {}).max_abs_error(r.y.data) <= 1e-5);  // NaN positions included
    }
    const core::Tensor c(core::Shape4{2, 3, 4, 4}, 3.0f);
    core::NormSpec spec = core::default_spec(core::Method::Instance);
    spec.affine = true;
    core::NormParams p;
    p.weight = {2, 2, 2};
    p.bias = {0.5f, -1, 4};
    const core::NormResult r = b.normalize(c, spec, p, {});
    for (std::int64_t i = 0; i < c.shape.numel(); ++i)
        CHECK(r.y.data[static_cast<std::size_t>(i)] == p.bias[static_cast<std::size_t>((i / 16) % 3)]);  // H·W = 16
}

TEST_CASE("CPU forward: PyTorch golden fixtures (tests/golden/cases)", "[cpu][golden]") {
    std::ifstream in(kGoldenDir + "cases.json");
    REQUIRE(in.good());
    const json cases = json::parse(in);
    REQUIRE(cases.size() >= 30);
    cpu::CpuBackend b;
    for (const auto& c : cases) {
        const std::string name = c.at("name");
        const std::string dir = kGoldenDir + "cases/" + name + "/";
        INFO("case " << name);
        core::NormSpec spec = core::default_spec(*core::parse_method(c.at("norm")));
        spec.eps = c.at("eps").get<double>();
        spec.affine = c.at("affine").get<bool>();
        core::NormParams p;
        if (spec.method == core::Method::Group) spec.groups = c.at("groups");
        if (spec.method == core::Method::Layer || spec.method == core::Method::Rms)
            spec.normalized_shape = c.at("normalized_shape").get<std::vector<std::int64_t>>();
        if (spec.method == core::Method::Layer) spec.bias = c.at("bias").get<bool>();
        if (spec.method == core::Method::Batch) {
            spec.mode = *core::parse_mode(c.at("mode"));
            if (c.at("momentum").is_string())
                spec.momentum.reset();
            else
                spec.momentum = c.at("momentum").get<double>();
            spec.track_running_stats = c.at("track_running_stats");
            p.num_batches_tracked = c.at("num_batches_tracked");
        }
        const auto files = c.at("files").get<std::vector<std::string>>();
        const auto has = [&](const std::string& f) { return std::find(files.begin(), files.end(), f) != files.end(); };
        const core::Tensor x = read_tensor(dir + "x.npy");
        if (has("weight.npy")) p.weight = io::read_npy(dir + "weight.npy").data;
        if (has("bias.npy")) p.bias = io::read_npy(dir + "bias.npy").data;
        if (has("running_mean.npy")) p.running_mean = io::read_npy(dir + "running_mean.npy").data;
        if (has("running_var.npy")) p.running_var = io::read_npy(dir + "running_var.npy").data;
        const core::NormResult r = b.normalize(x, spec, p, {});
        CHECK(reference::max_abs_error(r.y.data, read_f64(dir + "y.npy")) <= 1e-5);
        std::ifstream ein(dir + "expected.json");
        const json e = json::parse(ein);
        CHECK(r.layout.stat_shape == e.at("stat_shape").get<std::vector<std::int64_t>>());
        const auto doubles = [](const json& j) { return j.get<std::vector<double>>(); };
        if (spec.method == core::Method::Rms) {
            CHECK(max_rel_diff(r.mean_square, doubles(e.at("mean_square"))) <= 1e-5);
        } else {
            CHECK(max_rel_diff(r.mean, doubles(e.at("mean"))) <= 1e-5);
            CHECK(max_rel_diff(r.var, doubles(e.at("var"))) <= 1e-5);
        }
        if (spec.method == core::Method::Batch && spec.track_running_stats) {
            CHECK(max_rel_diff(r.running_mean, doubles(e.at("running_mean"))) <= 1e-5);
            CHECK(max_rel_diff(r.running_var, doubles(e.at("running_var"))) <= 1e-5);
            CHECK(r.num_batches_tracked == e.at("num_batches_tracked").get<std::int64_t>());
        }
    }
}

TEST_CASE("CPU forward: PyTorch's refusals, and a tensor over the backend's limit named in one line", "[cpu]") {
    cpu::CpuBackend b("CPU", 1000);
    const core::Tensor x = make_tensor({2, 3, 4, 4}, core::Init::Randn, 1);
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 4;
    CHECK_THROWS_AS(b.normalize(x, g, {}, {}), core::InputError);
    const core::Tensor big = make_tensor({2, 3, 16, 16}, core::Init::Randn, 1);
    try {
        b.normalize(big, core::default_spec(core::Method::Batch), {}, {});
        FAIL("a tensor of 1536 elements ran on a backend of 1000");
    } catch (const core::InputError& e) {
        const std::string line = e.what();
        CHECK(line.find("at most 1000") != std::string::npos);
        CHECK(line.find("1536") != std::string::npos);
        CHECK(line.find('\n') == std::string::npos);
    }
    CHECK(b.max_binding_bytes() == 4000);
}
