// 3-D tensors (N, L, D) / (N, C, L): parsing, layouts per method, PyTorch's module names, and
// scenes that keep the rank.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/state.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/io/scene_file.hpp"

#include <cmath>

using namespace normlab;

TEST_CASE("a 3-D shape is stored as n, c, h = 1, w and printed with 3 dims", "[shape][sequence]") {
    const core::Shape4 s = core::Shape4::from_dims({2, 5, 8});
    CHECK(s == core::Shape4::seq(2, 5, 8));
    CHECK(s.rank == 3);
    CHECK(s.h == 1);
    CHECK(s.numel() == 80);
    CHECK(s.str() == "[2, 5, 8]");
    CHECK(s.dims() == std::vector<std::int64_t>{2, 5, 8});
    CHECK_FALSE(s == core::Shape4{2, 5, 1, 8});  // a 4-D [2, 5, 1, 8] is another tensor
    CHECK_THROWS_WITH(core::Shape4::from_dims({2, 5, 1, 1, 1, 1}), Catch::Contains("expected a 1-D to 5-D shape"));
    CHECK_THROWS_AS(core::Shape4::from_dims({2, 0, 8}), core::InputError);
    CHECK(core::parse_indices("1,2,3", "--select", 4, 3).size() == 3);
    CHECK_THROWS_WITH(core::parse_indices("1,2", "--select", 4, 3), Catch::Contains("3 or 4 non-negative integers"));
}

TEST_CASE("layouts of a 3-D tensor: per token, per channel over (N, L), per (n, c), per (n, g)", "[layout][sequence]") {
    const core::Shape4 s = core::Shape4::seq(2, 6, 5);
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    layer.normalized_shape = {5};
    core::StatLayout l = core::make_layout(layer, s);
    CHECK(l.stat_shape == std::vector<std::int64_t>{2, 6});
    CHECK(l.reduced_axes == std::vector<std::string>{"D"});
    CHECK(l.count() == 5);
    CHECK(l.param_shape == std::vector<std::int64_t>{5});
    core::StatLayout ld = core::make_layout(core::default_spec(core::Method::Layer), s);  // default: every dim but N
    CHECK(ld.stat_shape == std::vector<std::int64_t>{2});
    CHECK(ld.reduced_axes == std::vector<std::string>{"L", "D"});
    CHECK(ld.param_shape == std::vector<std::int64_t>{6, 5});
    core::StatLayout b = core::make_layout(core::default_spec(core::Method::Batch), s);
    CHECK(b.stat_shape == std::vector<std::int64_t>{6});
    CHECK(b.reduced_axes == std::vector<std::string>{"N", "L"});
    CHECK(b.count() == 10);
    core::StatLayout in = core::make_layout(core::default_spec(core::Method::Instance), s);
    CHECK(in.reduced_axes == std::vector<std::string>{"L"});
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 3;
    CHECK(core::make_layout(g, s).reduced_axes == std::vector<std::string>{"C/G", "L"});
    CHECK(std::string(core::method_torch_name(core::Method::Batch, s)) == "BatchNorm1d");
    CHECK(std::string(core::method_torch_name(core::Method::Instance, s)) == "InstanceNorm1d");
    CHECK(std::string(core::method_torch_name(core::Method::Batch, core::Shape4{2, 6, 1, 5})) == "BatchNorm2d");
    layer.normalized_shape = {6, 5, 1};
    CHECK_THROWS_WITH(core::make_layout(layer, s),
                      "Given normalized_shape=[6, 5, 1], expected input with shape [*, 6, 5, 1], "
                      "but got input of size[2, 6, 5]");
    layer.normalized_shape = {2, 6, 5};  // every dim: one statistic over the whole (N, L, D) tensor
    CHECK(core::make_layout(layer, s).stat_count == 1);
}

TEST_CASE("the float64 reference of LayerNorm(D) on (N, L, D) normalizes each token", "[reference][sequence]") {
    core::Tensor x = make_tensor(core::Shape4::seq(2, 3, 4), core::Init::Arange, 0);
    core::NormSpec spec = core::default_spec(core::Method::Layer);
    spec.normalized_shape = {4};
    reference::ReferenceResult r = reference::reference_normalize(x, spec, {});
    REQUIRE(r.stats.mean.size() == 6);
    CHECK(r.stats.mean[0] == Approx(1.5));
    CHECK(r.stats.mean[5] == Approx(21.5));
    CHECK(r.stats.var[3] == Approx(1.25));
    CHECK(r.y[0] == Approx(-1.5 / std::sqrt(1.25 + 1e-5)));
}

TEST_CASE("a scene keeps a 3-D generated shape", "[scene][sequence]") {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = core::Shape4::seq(2, 5, 8);
    s.spec = core::default_spec(core::Method::Layer);
    s.spec.normalized_shape = {8};
    s.selection = core::Index4{1, 4, 0, 7};
    core::State back = io::scene_from_json(io::scene_to_json(s), "s.json");
    CHECK(back.source.shape == core::Shape4::seq(2, 5, 8));
    CHECK(back.spec.normalized_shape == std::vector<std::int64_t>{8});
    CHECK(back.selection == s.selection);
    CHECK(io::load_tensor(back.source).shape.rank == 3);
}
