// layout_params (normlab/plan/layout_params.hpp), the one description of both backends' parameter
// blocks: the magic-number division the GLSL kernels use, and the parameters of a layout.
#include <catch2/catch.hpp>

#include "normlab/plan/layout_params.hpp"

#include <random>

using namespace normlab;

TEST_CASE("div_magic divides every 32-bit n exactly", "[params]") {
    std::mt19937_64 rng(5);
    std::vector<std::uint64_t> divisors{1, 2, 3, 5, 7, 12, 49, 64, 100, 1000, 4096, 65535, 65536, 1000003};
    for (int i = 0; i < 40; ++i) divisors.push_back(1 + rng() % 0xffffffffu);
    for (std::uint64_t d : divisors) {
        const plan::DivMagic k = plan::div_magic(d);
        std::vector<std::uint32_t> ns{
            0, 1, static_cast<std::uint32_t>(d - 1), static_cast<std::uint32_t>(d), 0xfffffffeu, 0xffffffffu};
        for (int j = 0; j < 200; ++j) ns.push_back(static_cast<std::uint32_t>(rng()));
        for (std::uint32_t n : ns) {
            INFO("n = " << n << ", d = " << d);
            REQUIRE(plan::magic_divide(n, k) == n / d);
        }
    }
}

TEST_CASE("layout_params: GroupNorm's segmentation, γ/β indexing, flags and ε", "[params]") {
    core::NormSpec spec = core::default_spec(core::Method::Group);
    spec.groups = 2;
    spec.eps = 1e-3;
    const plan::LayoutParams p = plan::layout_params(core::make_layout(spec, {2, 8, 3, 5}), spec);
    CHECK(p.stat_count == 4);
    CHECK(p.count == 60);  // 4 channels of 3·5
    CHECK(p.segment_len == 60);
    CHECK_FALSE(p.segmented);
    CHECK(p.param_mode == 2);  // one γ per channel: a run of 15 elements
    CHECK(p.pelem_div == 15);
    CHECK(plan::magic_divide(44, p.pelem_magic) == 2);
    CHECK(p.has_w);
    CHECK(p.has_b);
    CHECK(p.eps == 1e-3f);
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    layer.normalized_shape = {5};
    layer.bias = false;
    const plan::LayoutParams l = plan::layout_params(core::make_layout(layer, {2, 8, 3, 5}), layer);
    CHECK(l.param_mode == 1);  // one γ per element
    CHECK(l.has_w);
    CHECK_FALSE(l.has_b);
    const core::NormSpec bn = core::default_spec(core::Method::Batch);
    const plan::LayoutParams b = plan::layout_params(core::make_layout(bn, {4, 3, 2, 2}), bn);
    CHECK(b.segmented);  // a channel spans the 4 samples
    CHECK(b.segment_len == 4);
    CHECK(b.param_mode == 0);
}
