// LayerNorm and RMSNorm over every dim (F.layer_norm(x, x.shape): one statistic over the whole
// tensor, N included) and on a 1-D tensor (nn.LayerNorm(D) on one token): storage, layout,
// the float64 reference, S_i and scenes.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/core/partition_set.hpp"
#include "normlab/core/reference.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/state.hpp"
#include "normlab/core/tensor_init.hpp"

#include <cmath>

using namespace normlab;

namespace {

NormSpec over(Method m, std::vector<std::int64_t> ns) {
    NormSpec s = default_spec(m);
    s.normalized_shape = std::move(ns);
    return s;
}

}  // namespace

TEST_CASE("a 1-D shape is one vector of D features", "[ranks][whole]") {
    const Shape4 v = Shape4::from_dims({7});
    CHECK(v == Shape4::vec(7));
    CHECK(v.rank == 1);
    CHECK(v.dims() == std::vector<std::int64_t>{7});
    CHECK(v.numel() == 7);
    CHECK(v.str() == "[7]");
    CHECK(user_index(v, {0, 4, 0, 0}) == std::vector<std::int64_t>{4});
    CHECK(stored_index(v, {4}) == Index4{0, 4, 0, 0});
    CHECK(axis_names(Method::Layer, v) == std::vector<std::string>{"D"});
    CHECK_THROWS_AS(Shape4::from_dims({}), InputError);
    CHECK_THROWS_AS(Shape4::from_dims({0}), InputError);
}

TEST_CASE("LayerNorm and RMSNorm of a 1-D tensor: one statistic, γ per feature", "[layout][ranks][whole]") {
    const Tensor x = make_tensor(Shape4::vec(5), Init::Arange, 0);  // 0, 1, 2, 3, 4
    for (Method m : {Method::Layer, Method::Rms}) {
        const NormSpec spec = default_spec(m);
        CHECK(spec.effective_normalized_shape(x.shape) == std::vector<std::int64_t>{5});
        const StatLayout l = make_layout(spec, x.shape);
        CHECK(l.stat_shape.empty());
        CHECK(l.stat_count == 1);
        CHECK(l.count() == 5);
        CHECK(l.param_shape == std::vector<std::int64_t>{5});
        CHECK(l.reduced_axes == std::vector<std::string>{"D"});
        for (std::int64_t i = 0; i < 5; ++i) {
            CHECK(l.stat_of(i) == 0);
            CHECK(l.param_of(i) == i);
        }
    }
    const ReferenceResult r = reference_normalize(x, default_spec(Method::Layer), {});
    REQUIRE(r.stats.mean.size() == 1);
    CHECK(r.stats.mean[0] == Approx(2.0));
    CHECK(r.stats.var[0] == Approx(2.0));
    CHECK(r.y[4] == Approx(2.0 / std::sqrt(2.0 + 1e-5)));
    const ReferenceResult q = reference_normalize(x, default_spec(Method::Rms), {});
    REQUIRE(q.stats.mean_square.size() == 1);
    CHECK(q.stats.mean_square[0] == Approx(6.0));  // (0 + 1 + 4 + 9 + 16) / 5
    const PartitionSet p = partition_set(default_spec(Method::Layer), x.shape, {0, 3, 0, 0});
    CHECK(p.rule == "S_i = { k | every k }");
    CHECK(p.filled == "i = (3): S_i = { k | every k }");
    CHECK(p.size == 5);
    CHECK(p.spanned_axes == std::vector<std::string>{"D"});
    CHECK(element_text(Method::Layer, x.shape, {0, 3, 0, 0}) == "d = 3");
}

TEST_CASE("normalized_shape spanning every dim: one statistic over the whole tensor", "[layout][ranks][whole]") {
    const std::vector<Shape4> shapes{Shape4::flat(3, 4), Shape4::seq(2, 3, 4), Shape4{2, 3, 4, 5},
                                     Shape4::volume(2, 3, 2, 3, 4)};
    for (const Shape4& s : shapes) {
        INFO(s.str());
        for (Method m : {Method::Layer, Method::Rms}) {
            const StatLayout l = make_layout(over(m, s.dims()), s);
            CHECK(l.stat_shape.empty());
            CHECK(l.stat_count == 1);
            CHECK(l.count() == s.numel());
            CHECK(l.param_shape == s.dims());
            CHECK(l.reduced_axes == axis_names(m, s));
            CHECK(l.stat_of(s.numel() - 1) == 0);
            CHECK(l.param_of(s.numel() - 1) == s.numel() - 1);
        }
        const Tensor x = make_tensor(s, Init::Arange, 0);
        const ReferenceResult r = reference_normalize(x, over(Method::Layer, s.dims()), {});
        REQUIRE(r.stats.mean.size() == 1);
        const double n = static_cast<double>(s.numel());
        CHECK(r.stats.mean[0] == Approx((n - 1) / 2));
        CHECK(r.stats.var[0] == Approx((n * n - 1) / 12));
        const PartitionSet p = partition_set(over(Method::Layer, s.dims()), s, {1, 1, 0, 0});
        CHECK(p.rule == "S_i = { k | every k }");
        CHECK(p.size == s.numel());
        CHECK(p.spanned_axes == axis_names(Method::Layer, s));
        CHECK(p.member({0, 0, 0, 0}));
    }
}

TEST_CASE("a scene keeps a 1-D tensor and a whole-tensor normalized_shape", "[scene][ranks][whole]") {
    State s;
    s.source.kind = TensorSource::Kind::Generated;
    s.source.shape = Shape4::vec(6);
    s.spec = default_spec(Method::Rms);
    s.selection = Index4{0, 5, 0, 0};
    State back = scene_from_json(scene_to_json(s), "s.json");
    CHECK(back.source.shape == Shape4::vec(6));
    CHECK(load_tensor(back.source).shape == Shape4::vec(6));
    CHECK(back.selection == s.selection);
    s.source.shape = Shape4::volume(2, 3, 2, 3, 4);
    s.spec = over(Method::Layer, {2, 3, 2, 3, 4});
    s.selection.reset();
    back = scene_from_json(scene_to_json(s), "s.json");
    CHECK(back.spec.normalized_shape == std::vector<std::int64_t>{2, 3, 2, 3, 4});
    CHECK(make_layout(back.spec, back.source.shape).stat_count == 1);
}
