// What the CPU backend gives the views: its histogram (CpuBackend::histogram on its x and y) against
// tests/histogram_reference, and the CPU heatmap fill (normlab/cpu/cpu_heatmap.hpp) against
// tests/heatmap_reference's pixel rule, every pixel, with the views' own fill parameters (fill_push):
// each mode, a selected statistic, elements smaller than a pixel, NaN and ±Inf, a constant range.
#include <catch2/catch.hpp>

#include "heatmap_reference.hpp"
#include "histogram_reference.hpp"
#include "random_configs.hpp"

#include "normlab/core/tensor_init.hpp"
#include "normlab/cpu/cpu_backend.hpp"
#include "normlab/cpu/cpu_heatmap.hpp"

#include <cmath>
#include <limits>
#include <numeric>

using namespace normlab;
using namespace normlab::test;

TEST_CASE("CPU histogram: the whole x, y − x and each statistic's elements, every bin", "[cpu][histogram]") {
    cpu::CpuBackend b;
    for (core::Method m : {core::Method::Batch, core::Method::Group, core::Method::Layer}) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 2;
        core::Tensor x = make_tensor({3, 4, 33, 41}, core::Init::Randn, 17);  // whole set: several 4096-element chunks
        x.data[7] = std::numeric_limits<float>::quiet_NaN();                  // skipped, not counted
        x.data[100] = -std::numeric_limits<float>::infinity();
        const core::NormResult r = b.normalize(x, spec, {}, {});
        std::vector<std::int64_t> all(static_cast<std::size_t>(x.shape.numel()));
        std::iota(all.begin(), all.end(), 0);
        INFO(describe(x.shape, spec));
        for (std::uint32_t bins : {1u, 7u, 64u, 256u}) {
            const plan::HistogramResult whole =
                b.histogram(b.x_device(), plan::ElementSet::whole(x.shape), bins, nullptr);
            CHECK(histogram_mismatch(whole, histogram_reference(x.data, nullptr, all, bins)) == "");
            CHECK(whole.count == x.shape.numel() - 2);
            const plan::HistogramResult diff =
                b.histogram(b.y_device(), plan::ElementSet::whole(x.shape), bins, &b.x_device());
            CHECK(histogram_mismatch(diff, histogram_reference(r.y.data, &x.data, all, bins)) == "");
        }
        for (std::int64_t s = 0; s < r.layout.stat_count; s += 3) {
            const plan::HistogramResult h =
                b.histogram(b.y_device(), plan::ElementSet::statistic(r.layout, s), 32, nullptr);
            CHECK(histogram_mismatch(h, histogram_reference(r.y.data, nullptr, statistic_offsets(r.layout, s), 32)) ==
                  "");
        }
    }
    // Values on a binary grid: every bin exact.
    core::Tensor g(core::Shape4{1, 1, 16, 16});
    for (std::size_t i = 0; i < g.data.size(); ++i) g.data[i] = static_cast<float>(i % 32) * 0.25f;
    b.normalize(g, core::default_spec(core::Method::Layer), {}, {});
    std::vector<std::int64_t> all(g.data.size());
    std::iota(all.begin(), all.end(), 0);
    const plan::HistogramResult h = b.histogram(b.x_device(), plan::ElementSet::whole(g.shape), 8, nullptr);
    CHECK(histogram_mismatch(h, histogram_reference(g.data, nullptr, all, 8), true) == "");
    CHECK_THROWS(b.histogram(b.x_device(), plan::ElementSet::whole(g.shape), 0, nullptr));
}

namespace {

constexpr std::uint32_t kLut = 256;

std::vector<Color> test_lut() {
    std::vector<Color> lut(kLut);
    for (std::uint32_t i = 0; i < kLut; ++i)
        lut[i] = {static_cast<float>(i) / 255.0f, static_cast<float>((i * 37) % 256) / 255.0f,
                  static_cast<float>((i * 101) % 256) / 255.0f};
    return lut;
}

std::vector<Color> test_palette(std::int64_t count) {
    std::vector<Color> p;
    for (std::int64_t i = 0; i < count; ++i)
        p.push_back({0.35f + 0.6f * static_cast<float>((i * 7) % 11) / 10.0f,
                     0.95f - 0.6f * static_cast<float>((i * 5) % 13) / 12.0f,
                     0.4f + 0.5f * static_cast<float>((i * 3) % 7) / 6.0f});
    return p;
}

HeatmapScene make_scene(const std::string& name, const core::NormSpec& spec, const core::Shape4& shape, float cell,
                        float gap) {
    HeatmapScene s;
    s.name = name;
    s.x = make_tensor(shape, core::Init::Randn, 7 + static_cast<std::uint64_t>(shape.numel()));
    s.y = s.x;
    for (float& v : s.y.data) v = 1.5f * v - 0.25f;
    s.stats = core::make_layout(spec, shape);
    s.tiles.shape = shape;
    s.tiles.cell = cell;
    s.tiles.gap = gap;
    const auto side = [&](float tile, std::int64_t k) {
        return static_cast<int>(std::ceil(tile * static_cast<float>(k) + gap * static_cast<float>(k - 1))) + 3;
    };
    s.tiles.width = side(s.tiles.tile_w(), shape.c);
    s.tiles.height = side(s.tiles.tile_h(), shape.n);
    return s;
}

// Every pixel of the CPU fill against the reference; returns how many pixels were compared.
std::int64_t check_scene(const HeatmapScene& s) {
    INFO(s.name << ", mode " << static_cast<int>(s.mode) << ", selected " << s.sel << ", cell " << s.tiles.cell);
    auto push = views::fill_push(s.tiles, s.mode, s.vmin, s.vmax, s.stats, s.sel, kLut);
    push.org_x = s.org_x;  // a zoomed heatmap's window
    push.org_y = s.org_y;
    const auto got = cpu::fill_heatmap(s.x.data.data(), s.y.data.data(), s.x.data.size(),
                                       as_vec4s(test_palette(s.stats.stat_count)), as_vec4s(test_lut()), push);
    REQUIRE(got.size() == static_cast<std::size_t>(s.tiles.width) * static_cast<std::size_t>(s.tiles.height));
    const PixelReference ref(s, test_lut(), test_palette(s.stats.stat_count));
    int bad = 0;
    for (int py = 0; py < s.tiles.height; ++py)
        for (int px = 0; px < s.tiles.width; ++px) {
            const std::uint32_t g = got[static_cast<std::size_t>(py) * static_cast<std::size_t>(s.tiles.width) +
                                        static_cast<std::size_t>(px)];
            const auto want = ref.pixel(px, py);
            if (std::none_of(want.begin(), want.end(), [&](std::uint32_t w) { return same_color(g, w); })) ++bad;
        }
    CHECK(bad == 0);
    return static_cast<std::int64_t>(got.size());
}

core::NormSpec spec_of(core::Method m, std::int64_t groups = 0, std::vector<std::int64_t> normalized_shape = {}) {
    core::NormSpec spec = core::default_spec(m);
    spec.groups = groups;
    spec.normalized_shape = std::move(normalized_shape);
    return spec;
}

}  // namespace

TEST_CASE("CPU heatmap fill: every mode, selection, averaging, NaN/Inf, against the reference", "[cpu][heatmap]") {
    std::vector<HeatmapScene> scenes = {
        make_scene("batch", spec_of(core::Method::Batch), {3, 4, 2, 3}, 5.0f, 2.0f),
        make_scene("group G=2", spec_of(core::Method::Group, 2), {2, 4, 3, 3}, 4.0f, 3.0f),
        make_scene("layer [H,W]", spec_of(core::Method::Layer, 0, {4, 5}), {2, 3, 4, 5}, 3.0f, 1.0f),
        make_scene("rms [W], half-pixel gap", spec_of(core::Method::Rms, 0, {3}), {2, 2, 3, 3}, 2.0f, 0.5f),
        make_scene("cell 1/4", spec_of(core::Method::Group, 3), {2, 3, 16, 20}, 0.25f, 1.0f),
        make_scene("cell 1/8", spec_of(core::Method::Instance), {2, 2, 32, 40}, 0.125f, 1.0f),
    };
    HeatmapScene poisoned = make_scene("NaN/Inf", spec_of(core::Method::Batch), {2, 3, 6, 6}, 3.0f, 2.0f);
    poisoned.x.data[4] = std::numeric_limits<float>::quiet_NaN();
    poisoned.y.data[40] = std::numeric_limits<float>::infinity();
    scenes.push_back(poisoned);
    // The windows a zoomed heatmap shows (normlab/views/heatmap_fill.hpp's fill_window): zoom 3 and 12.
    for (const auto& [zoom, ox] : {std::pair{3.0f, -20.5f}, std::pair{12.0f, -310.25f}}) {
        HeatmapScene z = make_scene("group G=2 zoomed", spec_of(core::Method::Group, 2), {2, 4, 3, 3}, 4.0f, 3.0f);
        const views::FillWindow w = views::fill_window(z.tiles, zoom, ox, ox / 3);
        z.name += " ×" + std::to_string(zoom);
        z.tiles = w.tiles;
        z.org_x = w.org_x;
        z.org_y = w.org_y;
        scenes.push_back(z);
    }
    std::int64_t pixels = 0;
    for (HeatmapScene s : scenes)
        for (plan::HeatmapMode mode : {plan::HeatmapMode::Input, plan::HeatmapMode::Output,
                                       plan::HeatmapMode::Difference, plan::HeatmapMode::Statistics})
            for (std::int64_t sel : {std::int64_t{-1}, std::int64_t{1}}) {
                s.mode = mode;
                s.sel = sel;
                pixels += check_scene(s);
            }
    HeatmapScene constant = make_scene("constant range", spec_of(core::Method::Instance), {2, 2, 3, 3}, 4.0f, 2.0f);
    constant.vmin = constant.vmax = 1.0f;
    constant.mode = plan::HeatmapMode::Input;
    pixels += check_scene(constant);
    CHECK(pixels > 20000);
    // The fill refuses a tensor smaller than its tiles.
    const HeatmapScene& s = scenes[0];
    const auto push = views::fill_push(s.tiles, plan::HeatmapMode::Input, -2, 2, s.stats, -1, kLut);
    CHECK_THROWS(
        cpu::fill_heatmap(s.x.data.data(), s.y.data.data(), 5, as_vec4s(test_palette(12)), as_vec4s(test_lut()), push));
}
