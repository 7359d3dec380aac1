// The worked examples of the seed texts (semantics.md), reproduced on the GPU.
#include <catch2/catch.hpp>

#include "../support.hpp"
#include "normlab/io/presets.hpp"

using namespace normlab;
using namespace normlab::test;

TEST_CASE("seed 003: InstanceNorm vs LayerNorm on one 1x2x2x2 sample", "[seed][gpu]") {
    const io::Preset* p = io::find_preset("seed003-in-vs-ln");
    REQUIRE(p);
    auto in = compare(p->x, core::default_spec(core::Method::Instance));
    REQUIRE(in.gpu.mean.size() == 2);
    CHECK(in.gpu.mean[0] == Approx(2.5).margin(1e-6));
    CHECK(in.gpu.mean[1] == Approx(6.5).margin(1e-6));
    CHECK(in.gpu.var[0] == Approx(1.25).margin(1e-6));
    CHECK(in.gpu.var[1] == Approx(1.25).margin(1e-6));
    CHECK(in.y_err < 1e-5);

    auto ln = compare(p->x, core::default_spec(core::Method::Layer));
    REQUIRE(ln.gpu.mean.size() == 1);
    CHECK(ln.gpu.mean[0] == Approx(4.5).margin(1e-6));
    CHECK(ln.gpu.var[0] == Approx(5.25).margin(1e-6));
    CHECK(ln.y_err < 1e-5);
}

TEST_CASE("seed 004: BatchNorm of four samples with gamma 0.5, beta 0.2", "[seed][gpu]") {
    const io::Preset* p = io::find_preset("seed004-bn");
    REQUIRE(p);
    core::NormSpec spec = core::default_spec(core::Method::Batch);
    // x_hat without affine.
    core::NormSpec plain = spec;
    plain.affine = false;
    auto a = compare(p->x, plain);
    CHECK(a.gpu.mean[0] == Approx(0.5).margin(1e-6));
    CHECK(a.gpu.var[0] == Approx(1.625).margin(1e-6));
    // Rounded to three decimals (the seed truncates 1.17669 to 1.176; it rounds to 1.177).
    const double xhat[] = {0.784, -0.784, 1.177, -1.177};
    for (int i = 0; i < 4; ++i) CHECK(a.gpu.y.data[static_cast<std::size_t>(i)] == Approx(xhat[i]).margin(5e-4));
    // With gamma = 0.5, beta = 0.2.
    auto b = compare(p->x, spec, p->params);
    const double y[] = {0.592, -0.192, 0.788, -0.388};
    for (int i = 0; i < 4; ++i) CHECK(b.gpu.y.data[static_cast<std::size_t>(i)] == Approx(y[i]).margin(1e-3));
    CHECK(b.y_err < 1e-6);
}

TEST_CASE("seed 004: InstanceNorm of one 2x2 channel", "[seed][gpu]") {
    const io::Preset* p = io::find_preset("seed004-in");
    REQUIRE(p);
    auto r = compare(p->x, core::default_spec(core::Method::Instance));
    CHECK(r.gpu.mean[0] == Approx(0.4).margin(1e-6));
    CHECK(r.gpu.var[0] == Approx(0.075).margin(1e-6));
    // Rounded to two decimals (the seed truncates 0.3651 to 0.36 and −1.0954 to −1.09).
    const double xhat[] = {1.46, -0.73, 0.37, -1.10};
    for (int i = 0; i < 4; ++i) CHECK(r.gpu.y.data[static_cast<std::size_t>(i)] == Approx(xhat[i]).margin(5e-3));
    CHECK(r.y_err < 1e-5);
}

TEST_CASE("seed 000 7.4.5: a far-off sample leaves LayerNorm's sample 0 unchanged, not BatchNorm's",
          "[seed][gpu][identity]") {
    const io::Preset* p = io::find_preset("seed000-far-sample");
    REQUIRE(p);
    const core::Tensor& big = p->x;  // 5 samples, the 5th = sample 0 * 100 + 500
    core::Tensor small({4, big.shape.c, big.shape.h, big.shape.w});
    std::copy(big.data.begin(), big.data.begin() + static_cast<std::ptrdiff_t>(small.data.size()), small.data.begin());
    const auto chw = static_cast<std::size_t>(big.shape.chw());

    for (core::Method m : {core::Method::Layer, core::Method::Instance, core::Method::Group, core::Method::Rms}) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 3;
        auto y_small = normalizer().run(small, spec).y.data;
        auto y_big = normalizer().run(big, spec).y.data;
        INFO(core::method_name(m));
        for (std::size_t i = 0; i < chw; ++i) REQUIRE(y_small[i] == y_big[i]);  // exactly equal
    }
    auto b_small = normalizer().run(small, core::default_spec(core::Method::Batch)).y.data;
    auto b_big = normalizer().run(big, core::default_spec(core::Method::Batch)).y.data;
    double diff = 0;
    for (std::size_t i = 0; i < chw; ++i) diff = std::max(diff, static_cast<double>(std::abs(b_small[i] - b_big[i])));
    CHECK(diff > 0.1);
}

TEST_CASE("seed 000 7.4.6: LayerNorm gives identical results in train and eval", "[seed][gpu][identity]") {
    core::Tensor x = make_tensor({3, 4, 5, 6}, core::Init::Randn, 3);
    core::NormSpec train = core::default_spec(core::Method::Layer);
    core::NormSpec eval = train;
    eval.mode = core::Mode::Eval;
    CHECK(normalizer().run(x, train).y.data == normalizer().run(x, eval).y.data);
}
