// LayerNorm and RMSNorm over every dim (F.layer_norm(x, x.shape): one statistic over the whole
// tensor, N included) and on a 1-D tensor (nn.LayerNorm(D) on one token): storage, layout,
// the float64 reference, S_i and scenes.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/core/partition_set.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/state.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/io/scene_file.hpp"

#include <cmath>

using namespace normlab;

namespace {

core::NormSpec over(core::Method m, std::vector<std::int64_t> ns) {
    core::NormSpec s = core::default_spec(m);
    s.normalized_shape = std::move(ns);
    return s;
}

}  // namespace

TEST_CASE("a 1-D shape is one vector of D features", "[ranks][whole]") {
    const core::Shape4 v = core::Shape4::from_dims({7});
    CHECK(v == core::Shape4::vec(7));
    CHECK(v.rank == 1);
    CHECK(v.dims() == std::vector<std::int64_t>{7});
    CHECK(v.numel() == 7);
    CHECK(v.str() == "[7]");
    CHECK(core::user_index(v, {0, 4, 0, 0}) == std::vector<std::int64_t>{4});
    CHECK(core::stored_index(v, {4}) == core::Index4{0, 4, 0, 0});
    CHECK(core::axis_names(core::Method::Layer, v) == std::vector<std::string>{"D"});
    CHECK_THROWS_AS(core::Shape4::from_dims({}), core::InputError);
    CHECK_THROWS_AS(core::Shape4::from_dims({0}), core::InputError);
}

TEST_CASE("LayerNorm and RMSNorm of a 1-D tensor: one statistic, γ per feature", "[layout][ranks][whole]") {
    const core::Tensor x = make_tensor(core::Shape4::vec(5), core::Init::Arange, 0);  // 0, 1, 2, 3, 4
    for (core::Method m : {core::Method::Layer, core::Method::Rms}) {
        const core::NormSpec spec = core::default_spec(m);
        CHECK(spec.effective_normalized_shape(x.shape) == std::vector<std::int64_t>{5});
        const core::StatLayout l = core::make_layout(spec, x.shape);
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
    const reference::ReferenceResult r = reference::reference_normalize(x, core::default_spec(core::Method::Layer), {});
    REQUIRE(r.stats.mean.size() == 1);
    CHECK(r.stats.mean[0] == Approx(2.0));
    CHECK(r.stats.var[0] == Approx(2.0));
    CHECK(r.y[4] == Approx(2.0 / std::sqrt(2.0 + 1e-5)));
    const reference::ReferenceResult q = reference::reference_normalize(x, core::default_spec(core::Method::Rms), {});
    REQUIRE(q.stats.mean_square.size() == 1);
    CHECK(q.stats.mean_square[0] == Approx(6.0));  // (0 + 1 + 4 + 9 + 16) / 5
    const core::PartitionSet p = core::partition_set(core::default_spec(core::Method::Layer), x.shape, {0, 3, 0, 0});
    CHECK(p.rule == "S_i = { k | every k }");
    CHECK(p.filled == "i = (3): S_i = { k | every k }");
    CHECK(p.size == 5);
    CHECK(p.spanned_axes == std::vector<std::string>{"D"});
    CHECK(core::element_text(core::Method::Layer, x.shape, {0, 3, 0, 0}) == "d = 3");
}

TEST_CASE("normalized_shape spanning every dim: one statistic over the whole tensor", "[layout][ranks][whole]") {
    const std::vector<core::Shape4> shapes{core::Shape4::flat(3, 4), core::Shape4::seq(2, 3, 4),
                                           core::Shape4{2, 3, 4, 5}, core::Shape4::volume(2, 3, 2, 3, 4)};
    for (const core::Shape4& s : shapes) {
        INFO(s.str());
        for (core::Method m : {core::Method::Layer, core::Method::Rms}) {
            const core::StatLayout l = core::make_layout(over(m, s.dims()), s);
            CHECK(l.stat_shape.empty());
            CHECK(l.stat_count == 1);
            CHECK(l.count() == s.numel());
            CHECK(l.param_shape == s.dims());
            CHECK(l.reduced_axes == core::axis_names(m, s));
            CHECK(l.stat_of(s.numel() - 1) == 0);
            CHECK(l.param_of(s.numel() - 1) == s.numel() - 1);
        }
        const core::Tensor x = make_tensor(s, core::Init::Arange, 0);
        const reference::ReferenceResult r = reference::reference_normalize(x, over(core::Method::Layer, s.dims()), {});
        REQUIRE(r.stats.mean.size() == 1);
        const double n = static_cast<double>(s.numel());
        CHECK(r.stats.mean[0] == Approx((n - 1) / 2));
        CHECK(r.stats.var[0] == Approx((n * n - 1) / 12));
        const core::PartitionSet p = core::partition_set(over(core::Method::Layer, s.dims()), s, {1, 1, 0, 0});
        CHECK(p.rule == "S_i = { k | every k }");
        CHECK(p.size == s.numel());
        CHECK(p.spanned_axes == core::axis_names(core::Method::Layer, s));
        CHECK(p.member({0, 0, 0, 0}));
    }
}

TEST_CASE("a scene keeps a 1-D tensor and a whole-tensor normalized_shape", "[scene][ranks][whole]") {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = core::Shape4::vec(6);
    s.spec = core::default_spec(core::Method::Rms);
    s.selection = core::Index4{0, 5, 0, 0};
    core::State back = io::scene_from_json(io::scene_to_json(s), "s.json");
    CHECK(back.source.shape == core::Shape4::vec(6));
    CHECK(io::load_tensor(back.source).shape == core::Shape4::vec(6));
    CHECK(back.selection == s.selection);
    s.source.shape = core::Shape4::volume(2, 3, 2, 3, 4);
    s.spec = over(core::Method::Layer, {2, 3, 2, 3, 4});
    s.selection.reset();
    back = io::scene_from_json(io::scene_to_json(s), "s.json");
    CHECK(back.spec.normalized_shape == std::vector<std::int64_t>{2, 3, 2, 3, 4});
    CHECK(core::make_layout(back.spec, back.source.shape).stat_count == 1);
}
