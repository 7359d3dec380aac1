// PartitionSet (the GN paper's S_i): the rule and its filled-in form for every method and rank,
// |S_i| = layout.count(), and on small shapes the members are exactly the elements StatLayout
// gives element i's statistic.
#include <catch2/catch.hpp>

#include "normlab/core/partition_set.hpp"
#include "normlab/core/stat_layout.hpp"

using namespace normlab;

namespace {

core::NormSpec spec_of(core::Method m, std::int64_t groups = 0, std::vector<std::int64_t> ns = {}) {
    core::NormSpec s = core::default_spec(m);
    if (m == core::Method::Group) s.groups = groups;
    s.normalized_shape = std::move(ns);
    return s;
}

std::int64_t offset(const core::Shape4& s, const core::Index4& k) {
    return ((k[0] * s.c + k[1]) * s.h + k[2]) * s.w + k[3];
}

// Every element k of s: member(k) exactly when StatLayout gives k the statistic of i; |S_i|.
void check_members(const core::NormSpec& spec, const core::Shape4& s) {
    const core::StatLayout l = core::make_layout(spec, s);
    for (std::int64_t in = 0; in < s.n; ++in)
        for (std::int64_t ic = 0; ic < s.c; ++ic)
            for (std::int64_t ih = 0; ih < s.h; ++ih)
                for (std::int64_t iw = 0; iw < s.w; ++iw) {
                    const core::Index4 i{in, ic, ih, iw};
                    const core::PartitionSet p = core::partition_set(spec, s, i);
                    CHECK(p.size == l.count());
                    std::int64_t members = 0;
                    for (std::int64_t kn = 0; kn < s.n; ++kn)
                        for (std::int64_t kc = 0; kc < s.c; ++kc)
                            for (std::int64_t kh = 0; kh < s.h; ++kh)
                                for (std::int64_t kw = 0; kw < s.w; ++kw) {
                                    const core::Index4 k{kn, kc, kh, kw};
                                    const bool same = l.stat_of(offset(s, k)) == l.stat_of(offset(s, i));
                                    REQUIRE(p.member(k) == same);
                                    members += same;
                                }
                    CHECK(members == p.size);
                }
}

}  // namespace

TEST_CASE("S_i in the GN paper's notation, 4-D", "[partition]") {
    const core::Shape4 s{2, 6, 2, 3};
    const core::Index4 i{1, 4, 1, 2};
    auto p = core::partition_set(spec_of(core::Method::Batch), s, i);
    CHECK(p.rule == "S_i = { k | k_C = i_C }");
    CHECK(p.filled == "i = (1, 4, 1, 2): S_i = { k | k_C = 4 }");
    CHECK(p.size == 2 * 2 * 3);
    CHECK(p.spanned_axes == std::vector<std::string>{"N", "H", "W"});
    CHECK(p.note == core::PartitionSet::Note::None);

    p = core::partition_set(spec_of(core::Method::Layer), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N }");
    CHECK(p.filled == "i = (1, 4, 1, 2): S_i = { k | k_N = 1 }");
    CHECK(p.size == 6 * 2 * 3);
    CHECK(p.spanned_axes == std::vector<std::string>{"C", "H", "W"});
    p = core::partition_set(spec_of(core::Method::Layer, 0, {2, 3}), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N, k_C = i_C }");
    CHECK(p.filled == "i = (1, 4, 1, 2): S_i = { k | k_N = 1, k_C = 4 }");
    CHECK(p.spanned_axes == std::vector<std::string>{"H", "W"});
    p = core::partition_set(spec_of(core::Method::Rms, 0, {3}), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N, k_C = i_C, k_H = i_H }");
    CHECK(p.filled == "i = (1, 4, 1, 2): S_i = { k | k_N = 1, k_C = 4, k_H = 1 }");
    CHECK(p.size == 3);
    CHECK(p.spanned_axes == std::vector<std::string>{"W"});

    p = core::partition_set(spec_of(core::Method::Instance), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N, k_C = i_C }");
    CHECK(p.filled == "i = (1, 4, 1, 2): S_i = { k | k_N = 1, k_C = 4 }");
    CHECK(p.size == 6);

    p = core::partition_set(spec_of(core::Method::Group, 3), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N, ⌊k_C/(C/G)⌋ = ⌊i_C/(C/G)⌋ }");
    CHECK(p.filled == "i = (1, 4, 1, 2): S_i = { k | k_N = 1, ⌊k_C/2⌋ = 2 }");
    CHECK(p.size == 2 * 2 * 3);
    CHECK(p.spanned_axes == std::vector<std::string>{"C/G", "H", "W"});
}

TEST_CASE("S_i of a 3-D tensor names the layout's axes", "[partition]") {
    const core::Shape4 s = core::Shape4::seq(2, 4, 3);
    const core::Index4 i{1, 2, 0, 1};
    auto p = core::partition_set(spec_of(core::Method::Batch), s, i);
    CHECK(p.rule == "S_i = { k | k_C = i_C }");
    CHECK(p.filled == "i = (1, 2, 1): S_i = { k | k_C = 2 }");
    CHECK(p.spanned_axes == std::vector<std::string>{"N", "L"});
    p = core::partition_set(spec_of(core::Method::Layer, 0, {3}), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N, k_L = i_L }");
    CHECK(p.filled == "i = (1, 2, 1): S_i = { k | k_N = 1, k_L = 2 }");
    CHECK(p.spanned_axes == std::vector<std::string>{"D"});
    CHECK(p.size == 3);
    p = core::partition_set(spec_of(core::Method::Rms), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N }");
    CHECK(p.spanned_axes == std::vector<std::string>{"L", "D"});
    p = core::partition_set(spec_of(core::Method::Instance), s, i);
    CHECK(p.rule == "S_i = { k | k_N = i_N, k_C = i_C }");
    CHECK(p.spanned_axes == std::vector<std::string>{"L"});
    p = core::partition_set(spec_of(core::Method::Group, 2), s, i);
    CHECK(p.filled == "i = (1, 2, 1): S_i = { k | k_N = 1, ⌊k_C/2⌋ = 1 }");
    CHECK(p.spanned_axes == std::vector<std::string>{"C/G", "L"});
}

TEST_CASE("S_i: BatchNorm eval uses the running statistics, SyncBN local mode the shards", "[partition]") {
    const core::Shape4 s{4, 3, 2, 2};
    core::NormSpec b = spec_of(core::Method::Batch);
    b.mode = core::Mode::Eval;
    auto p = core::partition_set(b, s, {0, 1, 0, 0});
    CHECK(p.note == core::PartitionSet::Note::RunningStats);
    CHECK(p.rule == "S_i = { k | k_C = i_C }");
    b.track_running_stats = false;  // eval without running statistics: the batch's, over S_i
    CHECK(core::partition_set(b, s, {0, 1, 0, 0}).note == core::PartitionSet::Note::None);
    core::NormSpec sync = spec_of(core::Method::Batch);
    sync.sync_devices = 2;
    sync.sync_mode = core::SyncMode::Local;
    p = core::partition_set(sync, s, {3, 1, 0, 1});
    CHECK(p.rule == "S_i = { k | ⌊k_N/(N/K)⌋ = ⌊i_N/(N/K)⌋, k_C = i_C }");
    CHECK(p.filled == "i = (3, 1, 0, 1): S_i = { k | ⌊k_N/2⌋ = 1, k_C = 1 }");
    CHECK(p.size == 2 * 2 * 2);
    CHECK(p.spanned_axes == std::vector<std::string>{"N/K", "H", "W"});
    CHECK(p.member({2, 1, 1, 1}));
    CHECK_FALSE(p.member({1, 1, 1, 1}));
    sync.sync_mode = core::SyncMode::Sync;
    CHECK(core::partition_set(sync, s, {3, 1, 0, 1}).size == 4 * 2 * 2);
    sync.sync_mode = core::SyncMode::Naive;
    CHECK(core::partition_set(sync, s, {3, 1, 0, 1}).note == core::PartitionSet::Note::NaiveShards);
}

TEST_CASE("S_i's members are StatLayout's, every method and rank", "[partition]") {
    for (const core::Shape4& s :
         {core::Shape4{2, 4, 2, 3}, core::Shape4{3, 2, 3, 2}, core::Shape4::seq(2, 4, 3), core::Shape4::seq(3, 2, 5),
          core::Shape4::flat(3, 4), core::Shape4::volume(2, 2, 2, 1, 3)}) {
        const auto dims = s.dims();
        check_members(spec_of(core::Method::Batch), s);
        check_members(spec_of(core::Method::Instance), s);
        for (std::int64_t g = 1; g <= s.c; ++g)
            if (s.c % g == 0) check_members(spec_of(core::Method::Group, g), s);
        for (core::Method m : {core::Method::Layer, core::Method::Rms})
            for (std::size_t t = 1; t <= dims.size(); ++t)  // up to every dim: one statistic
                check_members(spec_of(m, 0, std::vector<std::int64_t>(dims.end() - static_cast<long>(t), dims.end())),
                              s);
    }
}
