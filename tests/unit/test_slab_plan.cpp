// SlabPlan: every element of every statistic is covered exactly once, by a window within the
// binding limit, and each statistic's chunks are numbered without gaps or overlaps.
#include <catch2/catch.hpp>

#include "normlab/plan/slab_plan.hpp"

#include <map>

using namespace normlab;

namespace {
void check_plan(const core::NormSpec& spec, const core::Shape4& shape, std::int64_t max_elements,
                std::int64_t chunk_len) {
    core::StatLayout L = core::make_layout(spec, shape);
    plan::SlabPlan plan = plan::plan_slabs(L, max_elements, 4, chunk_len);
    std::vector<int> seen(static_cast<std::size_t>(shape.numel()), 0);
    std::map<std::int64_t, std::vector<int>> chunks;  // per statistic: how often each chunk index is used
    for (const plan::Slab& s : plan.slabs) {
        REQUIRE(s.extent <= max_elements);
        REQUIRE(s.flat_base % 4 == 0);
        REQUIRE(s.e_lo % 4 == 0);
        for (std::int64_t st = s.stat_lo; st < s.stat_hi; ++st) {
            auto& c = chunks[st];
            c.resize(plan.chunks_total, 0);
            for (std::uint32_t k = 0; k < s.chunks; ++k) c[s.chunk_base + k]++;
            for (std::int64_t e = s.e_lo; e < s.e_hi; ++e) {
                std::int64_t off = L.element_offset(st, e);
                REQUIRE(off >= s.flat_base);
                REQUIRE(off < s.flat_base + s.extent);
                seen[static_cast<std::size_t>(off)]++;
            }
        }
    }
    for (int v : seen) REQUIRE(v == 1);
    REQUIRE(static_cast<std::int64_t>(chunks.size()) == L.stat_count);
    for (auto& [st, c] : chunks)
        for (int v : c) REQUIRE(v == 1);
}
}  // namespace

TEST_CASE("slab plans cover every element once within the window limit", "[slabs]") {
    core::NormSpec g1 = core::default_spec(core::Method::Group);
    g1.groups = 1;
    core::NormSpec g3 = core::default_spec(core::Method::Group);
    g3.groups = 3;
    core::NormSpec lw = core::default_spec(core::Method::Layer);
    lw.normalized_shape = {8};
    for (const auto& spec :
         {core::default_spec(core::Method::Batch), core::default_spec(core::Method::Instance),
          core::default_spec(core::Method::Layer), g1, g3, lw, core::default_spec(core::Method::Rms)}) {
        INFO(core::method_name(spec.method));
        for (std::int64_t max : {1000000, 4096, 1024, 100, 40})
            for (std::int64_t chunk : {4, 64, 512}) {
                INFO("max " << max << " chunk " << chunk);
                check_plan(spec, {5, 6, 4, 8}, max, chunk);
                check_plan(spec, {2, 3, 12, 8}, max, chunk);
            }
    }
    // One window when everything fits.
    auto one =
        plan::plan_slabs(core::make_layout(core::default_spec(core::Method::Batch), {2, 3, 4, 4}), 1 << 20, 4, 64);
    CHECK(one.slabs.size() == 1);
    CHECK(one.ranges == 1);
}
