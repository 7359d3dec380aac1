// LayerNorm and RMSNorm on the GPU against the float64 reference where the statistic is the
// whole tensor: a 1-D vector (nn.LayerNorm(D) on one token) and a normalized_shape of every dim at
// ranks 2 to 5 (F.layer_norm(x, x.shape)), from a few elements to statistics split over many
// workgroups, with random ε, γ and β.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include <random>

using namespace normlab;
using namespace normlab::test;

namespace {

void check_whole(const core::Shape4& s, std::mt19937_64& rng) {
    for (core::Method m : {core::Method::Layer, core::Method::Rms}) {
        core::NormSpec spec = core::default_spec(m);
        spec.normalized_shape = s.dims();
        spec.eps = std::uniform_real_distribution<double>(1e-6, 1e-2)(rng);
        spec.bias = (rng() & 1) != 0;
        core::NormParams p;
        if ((rng() & 1) != 0) {
            std::normal_distribution<float> nd;
            for (std::int64_t i = 0; i < s.numel(); ++i) p.weight.push_back(1.0f + 0.5f * nd(rng));
            if (spec.has_bias())
                for (std::int64_t i = 0; i < s.numel(); ++i) p.bias.push_back(nd(rng));
        }
        const core::Tensor x = make_tensor(s, core::Init::Randn, rng());
        const auto r = compare(x, spec, p);
        INFO(describe(s, spec));
        REQUIRE(core::make_layout(spec, s).stat_count == 1);
        CHECK(r.y_err <= 1e-4);
        CHECK(r.mean_err <= 1e-5);
        CHECK(r.var_err <= 1e-5);
    }
}

}  // namespace

TEST_CASE("1-D vectors under LayerNorm and RMSNorm, from 1 element to split statistics", "[gpu][ranks][whole]") {
    std::mt19937_64 rng(707);
    for (std::int64_t d : {1, 2, 3, 4, 5, 7, 64, 97, 256, 257, 1000, 4099, 65537, 300007})
        check_whole(core::Shape4::vec(d), rng);
}

TEST_CASE("normalized_shape of every dim at ranks 2 to 5: one statistic, N included", "[gpu][ranks][whole]") {
    std::mt19937_64 rng(808);
    for (int rank : {2, 3, 4, 5})
        for (int i = 0; i < 6; ++i) check_whole(random_shape(rank, {1, 2, 3, 5, 8, 13}, rng), rng);
    // Statistics spanning many workgroups.
    check_whole(core::Shape4{4, 8, 64, 65}, rng);
    check_whole(core::Shape4::volume(2, 3, 5, 64, 67), rng);
    check_whole(core::Shape4::seq(16, 97, 129), rng);
}
