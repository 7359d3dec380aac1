// Identities between methods (semantics.md): GroupNorm(1) has LayerNorm([C,H,W])'s
// statistics, GroupNorm(C) is InstanceNorm, batch eval uses the running statistics.
#include <catch2/catch.hpp>

#include "../support.hpp"

using namespace normlab;
using namespace normlab::test;

TEST_CASE("GroupNorm(G=1) statistics equal LayerNorm over C H W statistics", "[identity][gpu]") {
    core::Tensor x = make_tensor({3, 6, 5, 4}, core::Init::Randn, 21);
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 1;
    auto rg = normalizer().run(x, g);
    auto rl = normalizer().run(x, core::default_spec(core::Method::Layer));
    REQUIRE(rg.mean.size() == rl.mean.size());
    for (std::size_t i = 0; i < rg.mean.size(); ++i) {
        CHECK(rg.mean[i] == Approx(rl.mean[i]).margin(1e-6));
        CHECK(rg.var[i] == Approx(rl.var[i]).margin(1e-6));
    }
    // Without affine parameters the outputs agree too (with them, γ/β differ in shape).
    g.affine = false;
    core::NormSpec l = core::default_spec(core::Method::Layer);
    l.affine = false;
    const auto yg = normalizer().run(x, g).y.data;
    const auto yl = normalizer().run(x, l).y.data;
    CHECK(reference::max_abs_error(yg, std::vector<double>(yl.begin(), yl.end())) < 1e-6);
}

TEST_CASE("GroupNorm(G=C) equals InstanceNorm", "[identity][gpu]") {
    core::Tensor x = make_tensor({2, 5, 7, 3}, core::Init::Randn, 22);
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 5;
    g.affine = false;
    auto rg = normalizer().run(x, g);
    auto ri = normalizer().run(x, core::default_spec(core::Method::Instance));
    REQUIRE(rg.mean.size() == ri.mean.size());
    for (std::size_t i = 0; i < rg.mean.size(); ++i) {
        CHECK(rg.mean[i] == Approx(ri.mean[i]).margin(1e-6));
        CHECK(rg.var[i] == Approx(ri.var[i]).margin(1e-6));
    }
    CHECK(rg.y.data == ri.y.data);
}

TEST_CASE("BatchNorm eval normalizes with the running statistics", "[identity][gpu]") {
    core::Tensor x = make_tensor({4, 3, 2, 2}, core::Init::Randn, 23);
    core::NormSpec spec = core::default_spec(core::Method::Batch);
    spec.mode = core::Mode::Eval;
    spec.affine = false;
    core::NormParams p;
    p.running_mean = {1.0f, -2.0f, 0.5f};
    p.running_var = {4.0f, 0.25f, 1.0f};
    auto r = normalizer().run(x, spec, p);
    CHECK(r.stats_from_running);
    CHECK_FALSE(r.running_updated);
    for (std::int64_t i = 0; i < x.shape.numel(); ++i) {
        auto c = static_cast<std::size_t>(core::unravel(x.shape, i)[1]);
        double expect = (x.data[static_cast<std::size_t>(i)] - p.running_mean[c]) / std::sqrt(p.running_var[c] + 1e-5);
        CHECK(r.y.data[static_cast<std::size_t>(i)] == Approx(expect).margin(1e-5));
    }
    // Without tracking, eval uses the batch statistics.
    spec.track_running_stats = false;
    core::NormSpec train = spec;
    train.mode = core::Mode::Train;
    CHECK(normalizer().run(x, spec).y.data == normalizer().run(x, train).y.data);
}

TEST_CASE("BatchNorm running statistics: unbiased variance, momentum and cumulative average", "[identity][gpu]") {
    core::Tensor x = make_tensor({2, 2, 3, 1}, core::Init::Randn, 24);
    core::NormSpec spec = core::default_spec(core::Method::Batch);
    auto r = compare(x, spec);
    const double n = 6;
    for (std::size_t c = 0; c < 2; ++c) {
        CHECK(r.gpu.running_mean[c] == Approx(0.1 * r.ref.stats.mean[c]).margin(1e-6));
        CHECK(r.gpu.running_var[c] == Approx(0.9 + 0.1 * r.ref.stats.var[c] * n / (n - 1)).margin(1e-6));
    }
    CHECK(r.gpu.num_batches_tracked == 1);
    spec.momentum.reset();  // cumulative: factor 1/num_batches_tracked
    core::NormParams p;
    p.running_mean = {1.0f, 1.0f};
    p.running_var = {2.0f, 2.0f};
    p.num_batches_tracked = 3;
    auto c = compare(x, spec, p);
    CHECK(c.gpu.num_batches_tracked == 4);
    CHECK(c.gpu.running_mean[0] == Approx(0.75 * 1.0 + 0.25 * c.ref.stats.mean[0]).margin(1e-6));
    CHECK(c.running_err < 1e-5);
}
