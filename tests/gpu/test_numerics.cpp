// Numerical robustness: large offsets, non-finite input, zero variance.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include <cmath>
#include <limits>

using namespace normlab;
using namespace normlab::test;

// Two tensors whose statistics cancel in a naive float sum: every value far from 0 (1e4 + 0.1 randn),
// and a first element far from the rest (x[0] = 1e4: the shift K is an outlier).
TEST_CASE("values far from 0, or a first element far from the rest, match float64 on every method", "[numerics][gpu]") {
    for (bool outlier_first : {false, true}) {
        for (core::Shape4 s : {core::Shape4{4, 8, 16, 16}, core::Shape4{2, 4, 96, 96}}) {  // fused and split statistics
            core::Tensor x = make_tensor(s, core::Init::Randn, outlier_first ? 506 : 505);
            if (outlier_first) {
                x.data[0] = 1e4f;
            } else {
                for (auto& v : x.data) v = 1e4f + 0.1f * v;
            }
            for (core::Method m : {core::Method::Batch, core::Method::Layer, core::Method::Instance,
                                   core::Method::Group, core::Method::Rms}) {
                core::NormSpec spec = core::default_spec(m);
                if (m == core::Method::Group) spec.groups = 2;
                auto r = compare(x, spec);
                INFO((outlier_first ? "x[0] = 1e4, " : "1e4 + 0.1 randn, ")
                     << describe(s, spec) << " err " << r.y_err << " mean err " << r.mean_err);
                CHECK(r.y_err <= 1e-3);
                CHECK(r.var_err <= 1e-6);
                // μ = K + mean(x − K) in float: its error is about |K − μ|·2⁻²⁴ times a few.
                if (outlier_first) CHECK(r.mean_err <= 2e-3);
            }
        }
    }
}

TEST_CASE("NaN and Inf propagate to their own statistic only, as in PyTorch", "[numerics][gpu]") {
    core::Tensor x = make_tensor({2, 4, 3, 3}, core::Init::Randn, 606);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    x.data[5] = nan;  // sample 0, channel 0
    x.data[static_cast<std::size_t>(x.offset(1, 3, 2, 2))] = std::numeric_limits<float>::infinity();
    core::NormSpec spec = core::default_spec(core::Method::Instance);
    auto r = normalizer().run(x, spec);
    CHECK(r.nonfinite_inputs == 2);
    for (std::int64_t i = 0; i < x.shape.numel(); ++i) {
        auto idx = core::unravel(x.shape, i);
        bool poisoned = (idx[0] == 0 && idx[1] == 0) || (idx[0] == 1 && idx[1] == 3);
        INFO("element " << i);
        CHECK(std::isnan(r.y.data[static_cast<std::size_t>(i)]) == poisoned);
    }
    // The reference agrees element by element (NaN positions included).
    CHECK(compare(x, spec).y_err <= 1e-5);
    core::NormSpec batch = core::default_spec(core::Method::Batch);
    CHECK(compare(x, batch).y_err <= 1e-5);
}

TEST_CASE("a constant tensor gives beta, with no division trouble", "[numerics][gpu]") {
    core::Tensor x = make_tensor({2, 3, 4, 4}, core::Init::Constant, 0, 3.25f);
    for (core::Method m : {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group}) {
        core::NormSpec spec = core::default_spec(m);
        spec.affine = true;
        if (m == core::Method::Group) spec.groups = 3;
        core::NormParams p;
        core::StatLayout layout = core::make_layout(spec, x.shape);
        p.weight.assign(static_cast<std::size_t>(layout.param_count), 2.0f);
        p.bias.assign(static_cast<std::size_t>(layout.param_count), 0.75f);
        auto r = normalizer().run(x, spec, p);
        for (float v : r.y.data) REQUIRE(v == 0.75f);
        for (double v : r.var) CHECK(v == 0.0);
    }
}
