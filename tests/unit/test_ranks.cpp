// 2-D (N, C) and 5-D (N, C, D, H, W) tensors: storage, layouts per method, PyTorch's module
// names and refusals per rank, the CPU reference by definition, and scenes that keep the rank.
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

TEST_CASE("2-D and 5-D shapes: storage, dims, indices", "[shape][ranks]") {
    const core::Shape4 f = core::Shape4::from_dims({8, 5});
    CHECK(f == core::Shape4::flat(8, 5));
    CHECK(f.rank == 2);
    CHECK(f.hw() == 1);
    CHECK(f.str() == "[8, 5]");
    const core::Shape4 v = core::Shape4::from_dims({2, 3, 4, 5, 6});
    CHECK(v.rank == 5);
    CHECK(v.d == 4);
    CHECK(v.h == 20);  // D·H
    CHECK(v.height() == 5);
    CHECK(v.hw() == 120);
    CHECK(v.numel() == 720);
    CHECK(v.str() == "[2, 3, 4, 5, 6]");
    CHECK_FALSE(v == core::Shape4{2, 3, 20, 6});  // the 4-D [2, 3, 20, 6] is another tensor
    CHECK(core::user_index(v, {1, 2, 13, 5}) == std::vector<std::int64_t>{1, 2, 2, 3, 5});
    CHECK(core::stored_index(v, {1, 2, 2, 3, 5}) == core::Index4{1, 2, 13, 5});
    CHECK(core::user_index(f, {7, 4, 0, 0}) == std::vector<std::int64_t>{7, 4});
    CHECK_THROWS_AS(core::Shape4::from_dims({2, 0, 3, 3, 3}), core::InputError);
    CHECK_THROWS_WITH(core::Shape4::from_dims({2, 3, 65536, 65536, 65536}), Catch::Contains("more than"));
}

TEST_CASE("PyTorch's module and refusal per rank", "[spec][ranks]") {
    CHECK(std::string(core::method_torch_name(core::Method::Batch, core::Shape4::flat(4, 3))) == "BatchNorm1d");
    CHECK(std::string(core::method_torch_name(core::Method::Batch, core::Shape4::volume(1, 2, 3, 4, 5))) ==
          "BatchNorm3d");
    CHECK(std::string(core::method_torch_name(core::Method::Instance, core::Shape4::volume(1, 2, 3, 4, 5))) ==
          "InstanceNorm3d");
    CHECK(std::string(core::method_torch_name(core::Method::Instance, core::Shape4::flat(4, 3))) == "InstanceNorm1d");
    CHECK(core::rank_error(core::Method::Batch, {3}) == "expected 2D or 3D input (got 1D input)");
    CHECK(core::rank_error(core::Method::Batch, {1, 2, 3, 4, 5, 6}) == "expected 5D input (got 6D input)");
    CHECK(core::rank_error(core::Method::Instance, {3}) == "expected 2D or 3D input (got 1D input)");
    CHECK(core::rank_error(core::Method::Instance, {1, 2, 3, 4, 5, 6}) == "expected 4D or 5D input (got 6D input)");
    CHECK(core::rank_error(core::Method::Group, {3}) ==
          "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    CHECK(core::rank_error(core::Method::Layer, {3}).empty());  // one vector: nn.LayerNorm(3) on a single token
    CHECK(core::rank_error(core::Method::Rms, {3}).empty());
    CHECK(core::rank_error(core::Method::Layer, {1, 2, 3, 4, 5, 6}) ==
          "normlab takes 1-D to 5-D tensors (D / N,C / N,L,D / N,C,H,W / N,C,D,H,W; 1-D under LayerNorm and "
          "RMSNorm only), got 6-D shape [1, 2, 3, 4, 5, 6]");
    for (core::Method m :
         {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group, core::Method::Rms})
        for (std::vector<std::int64_t> d : {std::vector<std::int64_t>{2, 3}, {2, 3, 4}, {2, 3, 4, 5}, {1, 2, 3, 4, 5}})
            CHECK(core::rank_error(m, d).empty());
    // A 1-D tensor under a method PyTorch refuses it for: NormSpec::validate gives PyTorch's text.
    CHECK_THROWS_WITH(core::make_layout(core::default_spec(core::Method::Batch), core::Shape4::vec(3)),
                      "expected 2D or 3D input (got 1D input)");
    CHECK_THROWS_WITH(core::make_layout(core::default_spec(core::Method::Group), core::Shape4::vec(3)),
                      "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    layer.normalized_shape = {3, 4};
    CHECK_THROWS_WITH(
        core::make_layout(layer, core::Shape4::flat(2, 4)),
        "Given normalized_shape=[3, 4], expected input with shape [*, 3, 4], but got input of size[2, 4]");
    layer.normalized_shape = {1, 2, 4};  // longer than the tensor
    CHECK_THROWS_WITH(core::make_layout(layer, core::Shape4::flat(2, 4)),
                      Catch::Contains("expected input with shape [*, 1, 2, 4]"));
    layer.normalized_shape = {5};
    CHECK_THROWS_WITH(core::make_layout(layer, core::Shape4::vec(1)),
                      "Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[1]");
    CHECK_THROWS_WITH(core::make_layout(core::default_spec(core::Method::Instance), core::Shape4::flat(3, 1)),
                      "Expected more than 1 spatial element when training, got input size [1, 3, 1]");
    CHECK_THROWS_WITH(core::make_layout(core::default_spec(core::Method::Batch), core::Shape4::flat(1, 3)),
                      "Expected more than 1 value per channel when training, got input size [1, 3]");
}

TEST_CASE("layouts of a 2-D tensor: per feature, per sample, per (n, g), per unbatched row", "[layout][ranks]") {
    const core::Shape4 s = core::Shape4::flat(4, 6);
    const core::StatLayout b = core::make_layout(core::default_spec(core::Method::Batch), s);
    CHECK(b.stat_shape == std::vector<std::int64_t>{6});
    CHECK(b.reduced_axes == std::vector<std::string>{"N"});
    CHECK(b.count() == 4);
    const core::StatLayout l = core::make_layout(core::default_spec(core::Method::Layer), s);
    CHECK(l.stat_shape == std::vector<std::int64_t>{4});
    CHECK(l.reduced_axes == std::vector<std::string>{"C"});
    CHECK(l.param_shape == std::vector<std::int64_t>{6});
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 3;
    const core::StatLayout gl = core::make_layout(g, s);
    CHECK(gl.stat_shape == std::vector<std::int64_t>{4, 3});
    CHECK(gl.count() == 2);
    const core::StatLayout in =
        core::make_layout(core::default_spec(core::Method::Instance), s);  // InstanceNorm1d's (C, L)
    CHECK(in.stat_shape == std::vector<std::int64_t>{4});
    CHECK(in.param_shape == std::vector<std::int64_t>{4});
    CHECK(in.count() == 6);
    CHECK(in.stat_of(13) == 2);
    CHECK(in.param_of(13) == 2);
    CHECK(in.param_of_element(2, 1) == 2);
    CHECK(core::axis_names(core::Method::Instance, s) == std::vector<std::string>{"C", "L"});
}

TEST_CASE("layouts of a 5-D tensor: every PyTorch partition is contiguous", "[layout][ranks]") {
    const core::Shape4 s = core::Shape4::volume(2, 3, 4, 5, 6);
    const core::StatLayout b = core::make_layout(core::default_spec(core::Method::Batch), s);
    CHECK(b.reduced_axes == std::vector<std::string>{"N", "D", "H", "W"});
    CHECK(b.count() == 2 * 120);
    const core::StatLayout in = core::make_layout(core::default_spec(core::Method::Instance), s);
    CHECK(in.reduced_axes == std::vector<std::string>{"D", "H", "W"});
    CHECK(in.stat_shape == std::vector<std::int64_t>{2, 3});
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    const std::vector<std::vector<std::int64_t>> shapes{{6}, {5, 6}, {4, 5, 6}, {3, 4, 5, 6}};
    const std::vector<std::vector<std::int64_t>> stats{{2, 3, 4, 5}, {2, 3, 4}, {2, 3}, {2}};
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        layer.normalized_shape = shapes[i];
        const core::StatLayout l = core::make_layout(layer, s);
        CHECK(l.stat_shape == stats[i]);
        CHECK(l.reduced_axes.size() == shapes[i].size());
    }
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 3;
    CHECK(core::make_layout(g, s).reduced_axes == std::vector<std::string>{"C/G", "D", "H", "W"});
}

TEST_CASE("the reference by definition on 2-D and 5-D tensors", "[reference][ranks]") {
    // BatchNorm1d on arange (N, C) = (4, 3): feature c holds c, c + 3, c + 6, c + 9.
    const core::Tensor x = make_tensor(core::Shape4::flat(4, 3), core::Init::Arange, 0);
    const reference::ReferenceResult b = reference::reference_normalize(x, core::default_spec(core::Method::Batch), {});
    REQUIRE(b.stats.mean.size() == 3);
    CHECK(b.stats.mean[1] == Approx(5.5));
    CHECK(b.stats.var[1] == Approx(11.25));
    const reference::ReferenceResult in =
        reference::reference_normalize(x, core::default_spec(core::Method::Instance), {});  // rows of (C, L)
    REQUIRE(in.stats.mean.size() == 4);
    CHECK(in.stats.mean[2] == Approx(7.0));
    // LayerNorm([D, H, W]) of a 5-D arange: statistic (n, c) averages its 24 consecutive values.
    const core::Tensor v = make_tensor(core::Shape4::volume(2, 2, 2, 3, 4), core::Init::Arange, 0);
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    layer.normalized_shape = {2, 3, 4};
    const reference::ReferenceResult l = reference::reference_normalize(v, layer, {});
    REQUIRE(l.stats.mean.size() == 4);
    CHECK(l.stats.mean[3] == Approx(72 + 11.5));
}

TEST_CASE("S_i of 2-D and 5-D tensors names the method's axes", "[partition][ranks]") {
    const core::PartitionSet b =
        core::partition_set(core::default_spec(core::Method::Batch), core::Shape4::flat(4, 3), {2, 1, 0, 0});
    CHECK(b.size == 4);
    CHECK(b.filled == "i = (2, 1): S_i = { k | k_C = 1 }");
    const core::Shape4 v = core::Shape4::volume(2, 3, 4, 5, 6);
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    layer.normalized_shape = {5, 6};
    const core::PartitionSet l = core::partition_set(layer, v, core::stored_index(v, {1, 2, 3, 4, 5}));
    CHECK(l.rule == "S_i = { k | k_N = i_N, k_C = i_C, k_D = i_D }");
    CHECK(l.filled == "i = (1, 2, 3, 4, 5): S_i = { k | k_N = 1, k_C = 2, k_D = 3 }");
    CHECK(l.size == 30);
    CHECK(l.spanned_axes == std::vector<std::string>{"H", "W"});
    CHECK(l.member(core::stored_index(v, {1, 2, 3, 0, 0})));
    CHECK_FALSE(l.member(core::stored_index(v, {1, 2, 2, 4, 5})));
    const core::PartitionSet in =
        core::partition_set(core::default_spec(core::Method::Instance), core::Shape4::flat(4, 3), {2, 1, 0, 0});
    CHECK(in.rule == "S_i = { k | k_C = i_C }");  // InstanceNorm1d's unbatched (C, L): one row
    CHECK(in.size == 3);
}

TEST_CASE("a scene keeps 2-D and 5-D generated shapes", "[scene][ranks]") {
    for (const core::Shape4& sh : {core::Shape4::flat(8, 5), core::Shape4::volume(2, 3, 4, 5, 6)}) {
        core::State s;
        s.source.kind = core::TensorSource::Kind::Generated;
        s.source.shape = sh;
        s.spec = core::default_spec(core::Method::Batch);
        s.selection = core::Index4{1, 2, 0, 0};
        const core::State back = io::scene_from_json(io::scene_to_json(s), "s.json");
        CHECK(back.source.shape == sh);
        CHECK(io::load_tensor(back.source).shape == sh);
        CHECK(back.selection == s.selection);
    }
}
