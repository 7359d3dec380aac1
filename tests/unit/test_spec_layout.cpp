// NormSpec validation (PyTorch's error texts) and the StatLayout model of every method.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/tensor_init.hpp"

using namespace normlab;

namespace {
std::string error_of(const core::NormSpec& spec, const core::Shape4& s) {
    try {
        core::make_layout(spec, s);
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("PyTorch's error messages", "[spec]") {
    core::NormSpec b = core::default_spec(core::Method::Batch);
    CHECK(error_of(b, {1, 3, 1, 1}) ==
          "Expected more than 1 value per channel when training, got input size [1, 3, 1, 1]");
    b.mode = core::Mode::Eval;
    CHECK(error_of(b, {1, 3, 1, 1}).empty());
    b.track_running_stats = false;  // eval then normalizes with the batch's statistics, as in train mode
    CHECK(error_of(b, {1, 3, 1, 1}) ==
          "Expected more than 1 value per channel when training, got input size [1, 3, 1, 1]");
    core::NormSpec i = core::default_spec(core::Method::Instance);
    CHECK(error_of(i, {2, 3, 1, 1}) ==
          "Expected more than 1 spatial element when training, got input size [2, 3, 1, 1]");
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 4;
    CHECK(error_of(g, {2, 6, 4, 4}) ==
          "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 6, 4, 4] and "
          "num_groups=4");
    g.groups = 0;
    CHECK(error_of(g, {2, 6, 4, 4}) == "Expected num groups to be greater than 0, got 0");
    core::NormSpec l = core::default_spec(core::Method::Layer);
    l.normalized_shape = {5};
    CHECK(error_of(l, {2, 3, 4, 4}) ==
          "Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[2, 3, 4, 4]");
    l.normalized_shape = {3, 5};
    CHECK(error_of(l, {2, 3, 4, 4}) ==
          "Given normalized_shape=[3, 5], expected input with shape [*, 3, 5], but got input of size[2, 3, 4, 4]");
    l.normalized_shape = {1, 2, 3, 4};  // every dim, N included: one statistic (F.layer_norm(x, x.shape))
    CHECK(error_of(l, {1, 2, 3, 4}).empty());
    l.normalized_shape = {1, 1, 2, 3, 4};  // more dims than the tensor: PyTorch's mismatch text
    CHECK(error_of(l, {1, 2, 3, 4}) ==
          "Given normalized_shape=[1, 1, 2, 3, 4], expected input with shape [*, 1, 1, 2, "
          "3, 4], but got input of size[1, 2, 3, 4]");
    core::NormSpec e = core::default_spec(core::Method::Layer);
    e.eps = -1;
    CHECK(error_of(e, {1, 2, 3, 4}).find("eps") != std::string::npos);
    CHECK(error_of(core::default_spec(core::Method::Layer), {0, 2, 3, 4}).find("dimension < 1") != std::string::npos);
    CHECK(error_of(core::default_spec(core::Method::Layer), {1 << 20, 1 << 20, 1 << 20, 2}).find("more than") !=
          std::string::npos);
}

TEST_CASE("defaults follow PyTorch", "[spec]") {
    CHECK(core::default_spec(core::Method::Layer).effective_eps() == 1e-5);
    CHECK(core::default_spec(core::Method::Rms).effective_eps() == 1.1920929e-07);
    CHECK_FALSE(core::default_spec(core::Method::Instance).affine);
    CHECK(core::default_spec(core::Method::Batch).affine);
    CHECK(*default_spec(core::Method::Batch).momentum == 0.1);
}

TEST_CASE("the method table: names, PyTorch names and labels of the five methods", "[spec]") {
    const auto& all = core::methods();
    REQUIRE(all.size() == 5);
    const core::Method order[] = {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                                  core::Method::Rms};
    for (std::size_t i = 0; i < all.size(); ++i) {
        INFO(all[i].name);
        CHECK(all[i].id == order[i]);  // the app's keys 1–5 follow this order
        CHECK(core::parse_method(all[i].name) == all[i].id);
        CHECK(std::string(core::method_name(all[i].id)) == all[i].name);
        CHECK(std::string(core::method_torch_name(all[i].id)) == all[i].torch_name);
        CHECK(&core::method_info(all[i].id) == &all[i]);
        CHECK(std::string(all[i].label).find("Norm") != std::string::npos);
    }
    CHECK(std::string(core::method_torch_name(core::Method::Instance)) == "InstanceNorm2d");
    CHECK(std::string(core::method_info(core::Method::Rms).label) == "RMSNorm");
    CHECK_FALSE(core::parse_method("banana").has_value());
    CHECK(core::method_names() == "batch, layer, instance, group or rms");
    CHECK(core::method_names(" | ", " | ") == "batch | layer | instance | group | rms");
}

TEST_CASE("default_groups: the G a switch to GroupNorm starts with", "[spec]") {
    // A middle divisor of C: neither LayerNorm's G = 1 nor InstanceNorm's G = C.
    CHECK(core::default_groups(6) == 2);   // 1 2 3 6
    CHECK(core::default_groups(4) == 2);   // 1 2 4
    CHECK(core::default_groups(8) == 2);   // 1 2 4 8
    CHECK(core::default_groups(12) == 3);  // 1 2 3 4 6 12
    CHECK(core::default_groups(16) == 4);  // 1 2 4 8 16
    CHECK(core::default_groups(64) == 8);  // 1 2 4 8 16 32 64
    CHECK(core::default_groups(9) == 3);   // 1 3 9
    // Two divisors or fewer: G = C.
    CHECK(core::default_groups(1) == 1);
    CHECK(core::default_groups(2) == 2);
    CHECK(core::default_groups(7) == 7);
    CHECK(core::default_groups(0) == 1);
    // A current G that divides C is kept; one that does not (or none) gives the default.
    CHECK(core::default_groups(6, 3) == 3);
    CHECK(core::default_groups(6, 6) == 6);
    CHECK(core::default_groups(6, 1) == 1);
    CHECK(core::default_groups(6, 4) == 2);
    CHECK(core::default_groups(6, 0) == 2);
    CHECK(core::default_groups(6, -2) == 2);
    for (std::int64_t c = 1; c <= 300; ++c) {
        const std::int64_t g = core::default_groups(c);
        INFO("C = " << c << ", G = " << g);
        REQUIRE(c % g == 0);
        core::NormSpec spec = core::default_spec(core::Method::Group);
        spec.groups = g;
        CHECK_NOTHROW(spec.validate({2, c, 2, 2}));
        int k = 0;
        for (std::int64_t d = 1; d <= c; ++d) k += c % d == 0;
        if (k > 2) CHECK((g > 1 && g < c));
    }
    CHECK(core::default_groups(std::int64_t{1} << 40) == std::int64_t{1} << 20);  // 41 divisors: the 21st
}

TEST_CASE("layouts: stat_shape, count and the γ/β shape of each method", "[layout]") {
    core::Shape4 s{2, 6, 3, 4};
    auto b = core::make_layout(core::default_spec(core::Method::Batch), s);
    CHECK(b.stat_shape == std::vector<std::int64_t>{6});
    CHECK(b.count() == 2 * 3 * 4);
    CHECK(b.param_shape == std::vector<std::int64_t>{6});
    auto in = core::make_layout(core::default_spec(core::Method::Instance), s);
    CHECK(in.stat_shape == std::vector<std::int64_t>{2, 6});
    CHECK(in.count() == 12);
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 3;
    auto gl = core::make_layout(g, s);
    CHECK(gl.stat_shape == std::vector<std::int64_t>{2, 3});
    CHECK(gl.count() == 2 * 12);
    core::NormSpec l = core::default_spec(core::Method::Layer);
    l.normalized_shape = {3, 4};
    auto ll = core::make_layout(l, s);
    CHECK(ll.stat_shape == std::vector<std::int64_t>{2, 6});
    CHECK(ll.param_shape == std::vector<std::int64_t>{3, 4});
    CHECK(ll.count() == 12);
}

TEST_CASE("StatLayout's element→statistic map agrees with the reference's definition", "[layout]") {
    core::Shape4 s{3, 6, 5, 2};
    core::Tensor x = make_tensor(s, core::Init::Arange);
    std::vector<core::NormSpec> specs;
    for (const core::MethodInfo& m : core::methods()) specs.push_back(core::default_spec(m.id));
    specs[3].groups = 2;
    core::NormSpec l1 = core::default_spec(core::Method::Layer);
    l1.normalized_shape = {2};
    specs.push_back(l1);
    core::NormSpec l2 = core::default_spec(core::Method::Layer);
    l2.normalized_shape = {5, 2};
    specs.push_back(l2);
    for (const auto& spec : specs) {
        core::StatLayout L = core::make_layout(spec, s);
        auto map = L.group_map();
        INFO(core::method_name(spec.method));
        // Each statistic's elements, enumerated by element_offset, map back to it.
        for (std::int64_t st = 0; st < L.stat_count; ++st)
            for (std::int64_t e = 0; e < L.count(); ++e) {
                REQUIRE(map[static_cast<std::size_t>(L.element_offset(st, e))] == st);
                REQUIRE(L.param_of_element(st, e) == L.param_of(L.element_offset(st, e)));
            }
        // And the layout's means equal the reference's (which groups by explicit loops).
        reference::Reference ref(x, spec, {});
        std::vector<double> sum(static_cast<std::size_t>(L.stat_count), 0.0);
        for (std::size_t i = 0; i < map.size(); ++i) sum[static_cast<std::size_t>(map[i])] += x.data[i];
        for (std::size_t st = 0; st < sum.size(); ++st) {
            double mean = sum[st] / static_cast<double>(L.count());
            if (spec.method == core::Method::Rms) continue;
            REQUIRE(mean == Approx(ref.stats().mean[st]));
        }
    }
}
