// The GPU against the float64 reference for every method and flag on many random shapes:
// dims of 1, odd and prime sizes, statistics far larger than one workgroup.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include <cstdlib>
#include <random>

using namespace normlab;
using namespace normlab::test;

namespace {

// Shapes of the given rank (random_shape): 2-D (N, C), 3-D (N, L, D) / (N, C, L), 4-D, 5-D
// (N, C, D, H, W); the configurations PyTorch refuses (valid()) are skipped.
void check_random(const std::vector<std::int64_t>& sizes, int cases, std::uint64_t seed, std::int64_t max_numel,
                  int rank = 4) {
    std::mt19937_64 rng(seed);
    int done = 0;
    while (done < cases) {
        const core::Shape4 s = random_shape(rank, sizes, rng);
        if (s.numel() > max_numel) continue;
        for (core::Method m : {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                               core::Method::Rms}) {
            auto [spec, params] = random_config(m, s, rng);
            if (!valid(m, s, spec)) continue;
            core::Tensor x = make_tensor(s, core::Init::Randn, rng());
            auto r = compare(x, spec, params);
            INFO(describe(s, spec));
            CHECK(r.y_err <= 1e-4);
            CHECK(r.mean_err <= 1e-5);
            CHECK(r.var_err <= 1e-5);
            CHECK(r.running_err <= 1e-5);
        }
        ++done;
    }
}

}  // namespace

TEST_CASE("random small shapes with dims of 1, odd and prime sizes", "[random][gpu]") {
    check_random({1, 2, 3, 5, 7, 8, 13}, 40, 101, 1 << 16);
}

TEST_CASE("random 3-D shapes: (N, L, D) for layer/rms, (N, C, L) for batch/instance/group", "[random][gpu]") {
    check_random({1, 2, 3, 5, 8, 13, 64, 97}, 30, 404, 1 << 16, 3);
}

TEST_CASE("random 2-D shapes (N, C): BatchNorm1d on features, layer/rms per sample, group", "[random][gpu]") {
    check_random({1, 2, 3, 5, 8, 13, 64, 97, 257}, 30, 505, 1 << 16, 2);
}

TEST_CASE("random 5-D shapes (N, C, D, H, W): BatchNorm3d, InstanceNorm3d, group, layer/rms", "[random][gpu]") {
    check_random({1, 2, 3, 5, 7, 8}, 30, 606, 1 << 16, 5);
}

TEST_CASE("random medium shapes, statistics spanning many workgroups", "[random][gpu]") {
    check_random({1, 3, 16, 31, 64, 97}, 12, 202, 1 << 20);
}

TEST_CASE("statistics far larger than one workgroup on every method", "[random][gpu]") {
    // One statistic of 2^20+ elements per method: the split + Chan-merge path.
    core::Tensor x = make_tensor({2, 4, 384, 384}, core::Init::Randn, 303);
    for (core::Method m :
         {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group, core::Method::Rms}) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 2;
        auto plan = normalizer().plan(core::make_layout(spec, x.shape), spec);
        auto r = compare(x, spec);
        INFO(describe(x.shape, spec) << " chunks=" << plan.chunks);
        CHECK_FALSE(plan.fused);
        CHECK(plan.chunks > 16);
        CHECK(r.y_err <= 1e-4);
        CHECK(r.var_err <= 1e-5);
    }
}

TEST_CASE("a tensor of 16M elements", "[random][gpu][large]") {
    core::Tensor x = make_tensor({16, 64, 128, 128}, core::Init::Randn, 404);
    REQUIRE(x.shape.numel() >= 16 * 1024 * 1024);
    for (core::Method m : {core::Method::Batch, core::Method::Group, core::Method::Layer}) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 8;
        if (m == core::Method::Layer) spec.normalized_shape = {128, 128};
        auto r = normalizer().run(x, spec);
        reference::Reference ref(x, spec, {});
        INFO(describe(x.shape, spec));
        CHECK(ref.max_abs_error(r.y.data) <= 1e-4);
    }
}

TEST_CASE("a tensor past maxStorageBufferRange runs in slabs", "[random][gpu][large]") {
    // 64M floats = 256 MiB against a binding limit of 128 MiB (lavapipe's own; forced here, since
    // a GPU such as the H200 binds 4 GiB at once).
    const char* before = std::getenv("NORMLAB_MAX_BINDING_BYTES");
    const std::string saved = before ? before : "";
    ::setenv("NORMLAB_MAX_BINDING_BYTES", "134217728", 1);
    struct Restore {
        std::string value;
        bool had;
        ~Restore() {
            had ? (void)::setenv("NORMLAB_MAX_BINDING_BYTES", value.c_str(), 1)
                : (void)::unsetenv("NORMLAB_MAX_BINDING_BYTES");
        }
    } restore{saved, before != nullptr};
    core::Tensor x = make_tensor({16, 64, 256, 256}, core::Init::Randn, 505);
    REQUIRE(static_cast<std::uint64_t>(x.shape.numel()) * 4 >
            std::min<std::uint64_t>(134217728, context().limits().maxStorageBufferRange));
    for (core::Method m : {core::Method::Batch, core::Method::Group, core::Method::Instance}) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 1;  // 16 statistics of 4M elements
        auto r = normalizer().run(x, spec);
        reference::Reference ref(x, spec, {});
        INFO(describe(x.shape, spec));
        CHECK(ref.max_abs_error(r.y.data) <= 1e-4);
        for (std::size_t s = 0; s < r.mean.size(); ++s) {
            CHECK(std::abs(r.mean[s] - ref.stats().mean[s]) <= 1e-5);
            CHECK(std::abs(r.var[s] - ref.stats().var[s]) <= 1e-5 * std::max(1.0, ref.stats().var[s]));
        }
    }
}
