// heatmap.comp (the app's heatmap fill) run without a window, with the push constants HeatmapView builds
// (normlab/views/heatmap_fill.hpp), against a CPU reference of its pixel rule: tile geometry (TileLayout: cell size,
// gaps, N rows × C columns of H×W tiles, the app's hit test), each mode (x, y, y − x through the colour
// table, statistic colours), averaging when elements are smaller than a pixel, the highlight of the selected
// statistic (StatLayout::stat_of), NaN/Inf colouring and background pixels. Why: the app draws only these
// pixels, and its Xvfb tests look at a few of them at most.
#include <catch2/catch.hpp>

#include "../heatmap_reference.hpp"
#include "../support.hpp"

#include "normlab/views/heatmap_fill.hpp"

#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/staging.hpp"
#include "normlab/core/state.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <vector>

using namespace normlab;
using namespace normlab::views;
using namespace normlab::test;

namespace {

using Scene = HeatmapScene;

constexpr std::uint32_t kLut = 256;
constexpr std::uint32_t kUnwritten = 0xdeadbeefu;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A colour table whose neighbouring entries differ by 37/255 in green: an index off by one shows.
std::vector<Color> test_lut() {
    std::vector<Color> lut(kLut);
    for (std::uint32_t i = 0; i < kLut; ++i)
        lut[i] = {static_cast<float>(i) / 255.0f, static_cast<float>((i * 37) % 256) / 255.0f,
                  static_cast<float>((i * 101) % 256) / 255.0f};
    return lut;
}

// One colour per statistic, all far from the background (dimmed and plain colours differ).
std::vector<Color> test_palette(std::int64_t count) {
    std::vector<Color> p;
    for (std::int64_t i = 0; i < count; ++i)
        p.push_back({0.35f + 0.6f * static_cast<float>((i * 7) % 11) / 10.0f,
                     0.95f - 0.6f * static_cast<float>((i * 5) % 13) / 12.0f,
                     0.4f + 0.5f * static_cast<float>((i * 3) % 7) / 6.0f});
    return p;
}

std::string hex(std::uint32_t v) {
    std::ostringstream os;
    os << std::hex << v;
    return os.str();
}

// The fill on the device: one kernel, its buffers uploaded through Staging, the pixels read back.
class Filler {
public:
    Filler()
        : rec_(context()),
          staging_(context(), rec_),
          fill_(context(), kFillShader, {}, {}, kFillBindings, sizeof(plan::HeatmapFillParams)) {}

    std::vector<std::uint32_t> run(const Scene& s) {
        gpu::VulkanContext& ctx = context();
        const auto palette = as_vec4s(test_palette(s.stats.stat_count));
        const auto lut = as_vec4s(test_lut());
        const std::size_t pixels = static_cast<std::size_t>(s.tiles.width) * static_cast<std::size_t>(s.tiles.height);
        std::vector<std::uint32_t> out(pixels, kUnwritten);
        gpu::GpuBuffer xb(ctx, s.x.data.size() * 4, gpu::BufferRole::Compute),
            yb(ctx, s.y.data.size() * 4, gpu::BufferRole::Compute);
        gpu::GpuBuffer pb(ctx, palette.size() * 4, gpu::BufferRole::Compute),
            lb(ctx, lut.size() * 4, gpu::BufferRole::Compute);
        gpu::GpuBuffer px(ctx, pixels * 4, gpu::BufferRole::Compute);
        staging_.upload({{&xb, 0, s.x.data.data(), s.x.data.size() * 4},
                         {&yb, 0, s.y.data.data(), s.y.data.size() * 4},
                         {&pb, 0, palette.data(), palette.size() * 4},
                         {&lb, 0, lut.data(), lut.size() * 4},
                         {&px, 0, out.data(), pixels * 4}});  // unwritten pixels keep kUnwritten
        fill_.bind({xb.handle(), yb.handle(), pb.handle(), lb.handle(), px.handle()});
        plan::HeatmapFillParams push = fill_push(s.tiles, s.mode, s.vmin, s.vmax, s.stats, s.sel, kLut);
        push.org_x = s.org_x;
        push.org_y = s.org_y;
        vk::CommandBuffer cmd = rec_.begin();
        fill_.dispatch(cmd, &push, fill_workgroups(s.tiles.width), fill_workgroups(s.tiles.height));
        // Makes the pixels visible to the readback (a copy when staged, the host where mapped).
        gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                            vk::PipelineStageFlagBits::eTransfer | vk::PipelineStageFlagBits::eHost,
                            vk::AccessFlagBits::eTransferRead | vk::AccessFlagBits::eHostRead);
        rec_.submit();
        staging_.download({{&px, 0, out.data(), pixels * 4}});
        return out;
    }

private:
    gpu::CommandRecorder rec_;
    gpu::Staging staging_;
    gpu::ComputeKernel fill_;
};

// The reference of scene s with the test's colour table and palette.
PixelReference pixel_reference(const Scene& s) { return {s, test_lut(), test_palette(s.stats.stat_count)}; }

// Pixel (x, y) of an image the fill wrote for `t`.
std::uint32_t pixel_at(const std::vector<std::uint32_t>& image, const TileLayout& t, float x, float y) {
    return image[static_cast<std::size_t>(y) * static_cast<std::size_t>(t.width) + static_cast<std::size_t>(x)];
}

// Every pixel against the reference; returns the pixels for further checks.
std::vector<std::uint32_t> check_scene(Filler& filler, const Scene& s) {
    INFO(s.name << ", mode " << static_cast<int>(s.mode) << ", selected statistic " << s.sel << ", cell "
                << s.tiles.cell << ", gap " << s.tiles.gap << ", image " << s.tiles.width << "×" << s.tiles.height);
    const std::vector<std::uint32_t> got = filler.run(s);
    const PixelReference ref = pixel_reference(s);
    int bad = 0;
    std::string first;
    for (int py = 0; py < s.tiles.height; ++py)
        for (int px = 0; px < s.tiles.width; ++px) {
            const std::uint32_t g = pixel_at(got, s.tiles, static_cast<float>(px), static_cast<float>(py));
            const auto want = ref.pixel(px, py);
            if (std::any_of(want.begin(), want.end(), [&](std::uint32_t w) { return same_color(g, w); })) continue;
            if (bad++ < 5)
                first +=
                    " (" + std::to_string(px) + "," + std::to_string(py) + "): " + hex(g) + " want " + hex(want[0]);
        }
    INFO("first mismatches:" << first);
    CHECK(bad == 0);
    return got;
}

Scene make_scene(const std::string& name, const core::NormSpec& spec, const core::Shape4& shape, float cell, float gap,
                 int extra_w = 0, int extra_h = 0) {
    Scene s;
    s.name = name;
    s.x = make_tensor(shape, core::Init::Randn, 7 + static_cast<std::uint64_t>(shape.numel()));
    s.y = s.x;
    for (float& v : s.y.data) v = 1.5f * v - 0.25f;
    s.stats = core::make_layout(spec, shape);
    s.tiles.shape = shape;
    s.tiles.cell = cell;
    s.tiles.gap = gap;
    s.tiles.width = static_cast<int>(std::ceil(s.tiles.tile_w() * static_cast<float>(shape.c) +
                                               gap * static_cast<float>(shape.c - 1))) +
                    extra_w;
    s.tiles.height = static_cast<int>(std::ceil(s.tiles.tile_h() * static_cast<float>(shape.n) +
                                                gap * static_cast<float>(shape.n - 1))) +
                     extra_h;
    return s;
}

core::NormSpec spec_of(core::Method m, std::int64_t groups = 0, std::vector<std::int64_t> normalized_shape = {}) {
    core::NormSpec spec = core::default_spec(m);
    spec.groups = groups;
    spec.normalized_shape = std::move(normalized_shape);
    return spec;
}

constexpr plan::HeatmapMode kModes[] = {plan::HeatmapMode::Input, plan::HeatmapMode::Output,
                                        plan::HeatmapMode::Difference, plan::HeatmapMode::Statistics};

}  // namespace

TEST_CASE("heatmap tile geometry: N rows × C columns of H×W tiles, cells, gaps and background", "[heatmap]") {
    Filler filler;
    // Whole-pixel cells and gaps, an image wider and taller than the grid (its margin is background).
    Scene s = make_scene("batch 3×4×2×3", spec_of(core::Method::Batch), {3, 4, 2, 3}, 5.0f, 2.0f, 9, 5);
    const auto got = check_scene(filler, s);
    const core::Shape4& sh = s.tiles.shape;
    REQUIRE(s.tiles.width == 4 * 15 + 3 * 2 + 9);
    REQUIRE(s.tiles.height == 3 * 10 + 2 * 2 + 5);
    const std::uint32_t bg = pack(kBackground);
    auto at = [&](int x, int y) { return pixel_at(got, s.tiles, static_cast<float>(x), static_cast<float>(y)); };
    // Every pixel of element (n, c, h, w) is the cell at TileLayout::element_pos, with its statistic's colour.
    const auto palette = test_palette(s.stats.stat_count);
    std::int64_t element_pixels = 0;
    for (std::int64_t i = 0; i < sh.numel(); ++i) {
        const auto [n, c, h, w] = core::unravel(sh, i);
        const auto p = s.tiles.element_pos(n, c, h, w);
        for (int dy = 0; dy < 5; ++dy)
            for (int dx = 0; dx < 5; ++dx) {
                INFO("element " << n << "," << c << "," << h << "," << w << " pixel +" << dx << ",+" << dy);
                CHECK(same_color(at(static_cast<int>(p[0]) + dx, static_cast<int>(p[1]) + dy),
                                 pack(palette[static_cast<std::size_t>(s.stats.stat_of(i))])));
                ++element_pixels;
            }
    }
    // Everything else (gaps between tiles, the margin) is background: count it.
    std::int64_t background = 0, unwritten = 0;
    for (std::uint32_t v : got) {
        background += same_color(v, bg) ? 1 : 0;
        unwritten += v == kUnwritten ? 1 : 0;
    }
    CHECK(unwritten == 0);
    CHECK(background + element_pixels == static_cast<std::int64_t>(got.size()));
    // The gap columns and rows between tiles, and the pixels just past the last tile.
    for (int y = 0; y < s.tiles.height; ++y) {
        CHECK(same_color(at(15, y), bg));
        CHECK(same_color(at(16, y), bg));
        CHECK(same_color(at(4 * 15 + 3 * 2, y), bg));
    }
    for (int x = 0; x < s.tiles.width; ++x) {
        CHECK(same_color(at(x, 10), bg));
        CHECK(same_color(at(x, 11), bg));
        CHECK(same_color(at(x, 3 * 10 + 2 * 2), bg));
    }
}

TEST_CASE("heatmap modes x, y, y − x and statistics against the reference", "[heatmap]") {
    Filler filler;
    std::vector<Scene> scenes{
        make_scene("batch", spec_of(core::Method::Batch), {3, 4, 2, 3}, 5.0f, 2.0f, 3, 2),
        make_scene("group G=2", spec_of(core::Method::Group, 2), {2, 4, 3, 3}, 4.0f, 3.0f),
        make_scene("layer [H,W]", spec_of(core::Method::Layer, 0, {4, 5}), {2, 3, 4, 5}, 3.0f, 1.0f),
        make_scene("instance", spec_of(core::Method::Instance), {2, 3, 2, 2}, 7.0f, 4.0f, 1, 1),
        make_scene("rms [W], half-pixel gap", spec_of(core::Method::Rms, 0, {3}), {2, 2, 3, 3}, 2.0f, 0.5f),
    };
    // The app's own geometry: TileLayout::fit of the default 4×6×4×4 tensor into a 300×200 panel.
    Scene fit = make_scene("fit 4×6×4×4", spec_of(core::Method::Batch), {4, 6, 4, 4}, 1.0f, 1.0f);
    fit.tiles = TileLayout::fit(fit.tiles.shape, 300.0f, 200.0f);
    scenes.push_back(fit);
    for (Scene& s : scenes)
        for (plan::HeatmapMode m : kModes) {
            s.mode = m;
            check_scene(filler, s);
            s.vmin = -0.5f, s.vmax = 3.0f;  // an asymmetric range; values beyond it clamp to the ends
            check_scene(filler, s);
            s.vmin = -2.0f, s.vmax = 2.0f;
        }
}

TEST_CASE("heatmap highlights exactly the selected statistic's elements (StatLayout::stat_of)", "[heatmap]") {
    Filler filler;
    struct Case {
        std::string name;
        core::NormSpec spec;
        core::Shape4 shape;
        core::Index4 selected;
    };
    const std::vector<Case> cases{{"batch", spec_of(core::Method::Batch), {3, 5, 2, 3}, {2, 4, 0, 2}},
                                  {"group G=2", spec_of(core::Method::Group, 2), {2, 6, 2, 2}, {1, 2, 1, 1}},
                                  {"group G=3", spec_of(core::Method::Group, 3), {2, 6, 3, 2}, {0, 5, 2, 0}},
                                  {"layer [W]", spec_of(core::Method::Layer, 0, {3}), {2, 2, 2, 3}, {1, 0, 1, 2}},
                                  {"layer [C,H,W]", spec_of(core::Method::Layer), {3, 2, 2, 2}, {1, 1, 0, 0}},
                                  {"instance", spec_of(core::Method::Instance), {2, 3, 3, 3}, {1, 1, 2, 2}},
                                  {"rms [H,W]", spec_of(core::Method::Rms, 0, {2, 3}), {2, 2, 2, 3}, {0, 1, 1, 1}}};
    for (const Case& c : cases) {
        Scene s = make_scene(c.name, c.spec, c.shape, 4.0f, 2.0f);
        const std::int64_t sel_offset = s.x.offset(c.selected[0], c.selected[1], c.selected[2], c.selected[3]);
        s.sel = s.stats.stat_of(sel_offset);  // as Session::selected_stat
        // The elements of the selected statistic, from StatLayout::element_offset (not from stat_of).
        std::set<std::int64_t> members;
        for (std::int64_t e = 0; e < s.stats.count(); ++e) members.insert(s.stats.element_offset(s.sel, e));
        REQUIRE(members.count(sel_offset) == 1);
        for (plan::HeatmapMode m : kModes) {
            s.mode = m;
            const auto got = check_scene(filler, s);
            // The centre pixel of each element: plain colour exactly for the members, dimmed for the rest.
            Scene plain = s;
            plain.sel = -1;
            const PixelReference undimmed = pixel_reference(plain);
            for (std::int64_t i = 0; i < c.shape.numel(); ++i) {
                const auto [n, ch, h, w] = core::unravel(c.shape, i);
                const auto p = s.tiles.element_pos(n, ch, h, w);
                const std::uint32_t g = pixel_at(got, s.tiles, p[0] + 2, p[1] + 2);
                const bool lit = same_color(g, pack(undimmed.element_colors(i)[0]));
                INFO(c.name << " mode " << static_cast<int>(m) << " element " << i << " statistic "
                            << s.stats.stat_of(i));
                CHECK(lit == (members.count(i) == 1));
            }
        }
    }
}

TEST_CASE("heatmap averages elements smaller than a pixel", "[heatmap]") {
    Filler filler;
    std::vector<Scene> scenes{
        make_scene("cell 1/4 (4×4 elements a pixel)", spec_of(core::Method::Group, 3), {2, 3, 16, 20}, 0.25f, 1.0f),
        make_scene("cell 1/2", spec_of(core::Method::Batch), {2, 3, 10, 12}, 0.5f, 2.0f),
        make_scene("cell 1/8 (8×8 elements a pixel, 4×4 sampled)", spec_of(core::Method::Instance), {2, 2, 32, 40},
                   0.125f, 1.0f),
    };
    // A cell the app computes (not a binary fraction): fit 2×3×40×50 into 90×60 pixels.
    Scene fit = make_scene("fit 2×3×40×50", spec_of(core::Method::Layer), {2, 3, 40, 50}, 1.0f, 1.0f);
    fit.tiles = TileLayout::fit(fit.tiles.shape, 90.0f, 60.0f);
    REQUIRE(fit.tiles.cell < 1.0f);
    scenes.push_back(fit);
    for (Scene& s : scenes) {
        s.sel = 1;
        for (plan::HeatmapMode m : kModes) {
            s.mode = m;
            check_scene(filler, s);
        }
        s.sel = -1;
        s.mode = plan::HeatmapMode::Difference;
        check_scene(filler, s);
    }
}

// A zoomed heatmap fills only the window its panel shows (normlab/views/heatmap_fill.hpp's fill_window): the zoomed
// grid's pixels at org, never an image of zoom × the grid's size.
TEST_CASE("heatmap fills the window of a zoomed grid, as the whole zoomed grid has it there", "[heatmap]") {
    Filler filler;
    for (Scene base : {make_scene("zoomed 2×3×5×4", spec_of(core::Method::Group, 3), {2, 3, 5, 4}, 6.0f, 2.0f),
                       make_scene("zoomed, cells still below a pixel", spec_of(core::Method::Instance), {2, 2, 32, 40},
                                  0.125f, 1.0f)}) {
        const std::array<std::array<float, 3>, 4> views{
            {{3.5f, -50.25f, -30.5f}, {16.0f, -700.0f, -220.0f}, {4.0f, -31.0f, -17.0f}, {2.0f, 13.0f, 9.0f}}};
        for (const auto& [zoom, ox, oy] : views) {
            const FillWindow w = fill_window(base.tiles, zoom, ox, oy);
            REQUIRE((w.tiles.width <= base.tiles.width && w.tiles.height <= base.tiles.height));
            Scene s = base;
            s.name += " at zoom " + std::to_string(zoom);
            s.tiles = w.tiles;
            s.org_x = w.org_x;
            s.org_y = w.org_y;
            for (plan::HeatmapMode m : {plan::HeatmapMode::Input, plan::HeatmapMode::Statistics}) {
                s.mode = m;
                s.sel = m == plan::HeatmapMode::Statistics ? 1 : -1;
                const std::vector<std::uint32_t> got = check_scene(filler, s);
                if (ox != std::floor(ox) || oy != std::floor(oy) || ox > 0 || oy > 0) continue;
                // A whole-pixel org: the window is the crop of the whole zoomed grid, pixel for pixel.
                Scene whole = base;
                whole.mode = s.mode;
                whole.sel = s.sel;
                whole.tiles.cell = w.tiles.cell;
                whole.tiles.gap = w.tiles.gap;
                whole.tiles.width = w.x + static_cast<int>(w.org_x) + w.tiles.width;
                whole.tiles.height = w.y + static_cast<int>(w.org_y) + w.tiles.height;
                const std::vector<std::uint32_t> all = filler.run(whole);
                int differ = 0;
                for (int py = 0; py < w.tiles.height; ++py)
                    for (int px = 0; px < w.tiles.width; ++px)
                        differ += got[static_cast<std::size_t>(py * w.tiles.width + px)] !=
                                  pixel_at(all, whole.tiles, static_cast<float>(px) + w.org_x,
                                           static_cast<float>(py) + w.org_y);
                CHECK(differ == 0);
            }
        }
    }
}

TEST_CASE("heatmap colours NaN and ±Inf magenta, statistics mode keeps its colours", "[heatmap]") {
    Filler filler;
    for (float cell : {5.0f, 0.5f}) {
        Scene s = make_scene("batch with NaN/Inf", spec_of(core::Method::Batch), {2, 3, 6, 6}, cell, 2.0f);
        s.x.data[0] = kNaN;
        s.x.data[7] = kInf;
        s.x.data[40] = -kInf;
        s.y.data[90] = kNaN;
        s.y.data[150] = kInf;
        s.x.data[150] = kInf;  // y − x = Inf − Inf = NaN; x and y each Inf
        s.y.data[200] = 3e38f;
        s.x.data[200] = -3e38f;  // finite x and y, y − x overflows to +Inf
        for (plan::HeatmapMode m : kModes) {
            s.mode = m;
            s.sel = -1;
            const auto got = check_scene(filler, s);
            s.sel = 2;
            check_scene(filler, s);
            if (cell < 1.0f) continue;
            // The centre pixel of each planted element.
            const std::uint32_t magenta = pack(kNonFinite);
            for (std::int64_t i : {0, 7, 40, 90, 150, 200}) {
                const auto [n, c, h, w] = core::unravel(s.x.shape, i);
                const auto p = s.tiles.element_pos(n, c, h, w);
                const std::uint32_t g = pixel_at(got, s.tiles, p[0] + 2, p[1] + 2);
                const float v = m == plan::HeatmapMode::Input ? s.x.data[static_cast<std::size_t>(i)]
                                : m == plan::HeatmapMode::Output
                                    ? s.y.data[static_cast<std::size_t>(i)]
                                    : s.y.data[static_cast<std::size_t>(i)] - s.x.data[static_cast<std::size_t>(i)];
                INFO("element " << i << " mode " << static_cast<int>(m) << " value " << v);
                CHECK((g == magenta) == (m != plan::HeatmapMode::Statistics && !std::isfinite(v)));
            }
        }
    }
}

TEST_CASE("heatmap with a constant value range maps every value to the middle of the table", "[heatmap]") {
    Filler filler;
    Scene s = make_scene("constant range", spec_of(core::Method::Instance), {2, 2, 3, 3}, 4.0f, 2.0f);
    s.vmin = s.vmax = 0.5f;
    for (plan::HeatmapMode m : {plan::HeatmapMode::Input, plan::HeatmapMode::Output, plan::HeatmapMode::Difference}) {
        s.mode = m;
        const auto got = check_scene(filler, s);
        // t = 0.5: entry round(127.5), 127 or 128 (GLSL leaves the direction of a tie open).
        const auto lut = test_lut();
        const auto p = s.tiles.element_pos(1, 1, 2, 2);
        const std::uint32_t g = pixel_at(got, s.tiles, p[0] + 1, p[1] + 1);
        CHECK((same_color(g, pack(lut[127])) || same_color(g, pack(lut[128]))));
    }
}

TEST_CASE("heatmap fill push constants are the view's: TileLayout, mode, range and StatLayout", "[heatmap]") {
    const core::Shape4 shape{3, 4, 5, 6};
    const core::StatLayout l = core::make_layout(spec_of(core::Method::Group, 2), shape);
    const TileLayout t = TileLayout::fit(shape, 400.0f, 300.0f);
    const plan::HeatmapFillParams p = fill_push(t, plan::HeatmapMode::Difference, -1.5f, 2.5f, l, 3, kLut);
    CHECK(p.n == 3);
    CHECK(p.c == 4);
    CHECK(p.h == 5);
    CHECK(p.w == 6);
    CHECK(p.img_w == static_cast<std::uint32_t>(t.width));
    CHECK(p.img_h == static_cast<std::uint32_t>(t.height));
    CHECK(p.cell == t.cell);
    CHECK(p.gap == t.gap);
    CHECK(p.mode == 2);
    CHECK(p.vmin == -1.5f);
    CHECK(p.vmax == 2.5f);
    CHECK(p.stat_count == static_cast<std::uint32_t>(l.stat_count));
    CHECK(p.stat_stride == static_cast<std::uint32_t>(l.stat_stride));
    CHECK(p.sel_stat == 3);
    CHECK(p.lut_size == kLut);
    CHECK(fill_push(t, plan::HeatmapMode::Statistics, 0, 1, l, -1, kLut).sel_stat == -1);
    CHECK(fill_workgroups(1) == 1);
    CHECK(fill_workgroups(16) == 1);
    CHECK(fill_workgroups(17) == 2);
}
