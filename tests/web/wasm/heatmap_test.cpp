#include "heatmap_test.hpp"

#include "normlab/views/colormap.hpp"
#include "heatmap_reference.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/webgpu/wgpu_heatmap.hpp"
#include "random_configs.hpp"

#include <chrono>
#include <limits>
#include <random>
#include <sstream>

namespace normlab::web {
namespace {

using test::Color;
using test::HeatmapMode;
using test::HeatmapScene;
using views::Colormap;
using views::GroupPalette;
using webgpu::WgpuHeatmap;
using webgpu::WgpuNormalizer;

std::vector<Color> palette_of(std::int64_t count, GroupPalette p) {
    std::vector<Color> out;
    for (std::int64_t s = 0; s < count; ++s) out.push_back(views::stat_color(s, count, p));
    return out;
}

class HeatmapSuite {
public:
    explicit HeatmapSuite(webgpu::WgpuNormalizer& n) : n_(n), fill_(n.context()) {}

    // Every pixel of scene s, filled on the device from the normalizer's x and y, against the reference.
    void check(const HeatmapScene& s, Colormap map, GroupPalette pal) {
        ++cases_;
        selected_ += s.sel >= 0 ? 1 : 0;
        ++modes_[std::to_string(static_cast<int>(s.mode))];
        try {
            const std::vector<Color> lut = views::colormap_lut(map), palette = palette_of(s.stats.stat_count, pal);
            plan::HeatmapFillParams push = views::fill_push(s.tiles, s.mode, s.vmin, s.vmax, s.stats, s.sel,
                                                            static_cast<std::uint32_t>(lut.size()));
            push.org_x = s.org_x;  // a zoomed heatmap's window
            push.org_y = s.org_y;
            const auto b = n_.buffers();
            const std::vector<std::uint32_t> got =
                fill_.fill(b.x, b.y, test::as_vec4s(palette), test::as_vec4s(lut), push);
            const test::PixelReference ref(s, lut, palette);
            int bad = 0;
            std::ostringstream first;
            for (int py = 0; py < s.tiles.height; ++py)
                for (int px = 0; px < s.tiles.width; ++px) {
                    const std::uint32_t g = got[static_cast<std::size_t>(py) * s.tiles.width + px];
                    const auto want = ref.pixel(px, py);
                    ++pixels_;
                    bool ok = false;
                    for (std::uint32_t w : want) ok = ok || test::same_color(g, w);
                    if (!ok && bad++ < 3)
                        first << " (" << px << "," << py << "): " << std::hex << g << " want " << want[0] << std::dec;
                }
            if (bad) fail(s, std::to_string(bad) + " pixels differ:" + first.str());
        } catch (const std::exception& ex) {
            fail(s, std::string("threw: ") + ex.what());
        }
    }

    // A normalizer run on x, then every mode at two sizes (cells above and below a pixel).
    void scenes(const std::string& name, const core::Tensor& x, const core::NormSpec& spec,
                const core::NormParams& params, int k) {
        const core::NormResult r = n_.run(x, spec, params);
        ++methods_[core::method_name(spec.method)];
        HeatmapScene s;
        s.x = x;
        s.y = r.y;
        s.stats = r.layout;
        // Two sizes (cells above and below a pixel), and the window a panel of the first shows at zoom 5.
        for (int size = 0; size < 3; ++size) {
            s.tiles = views::TileLayout::fit(x.shape, size == 1 ? 40.0f : 190.0f, size == 1 ? 28.0f : 130.0f);
            cells_below_pixel_ += s.tiles.cell < 1.0f ? 1 : 0;
            if (size == 2) {
                const views::FillWindow win = views::fill_window(s.tiles, 5.0f, -0.4f * 5 * s.tiles.width, -17.25f);
                s.tiles = win.tiles;
                s.org_x = win.org_x;
                s.org_y = win.org_y;
                ++zoomed_;
            }
            for (plan::HeatmapMode mode : {plan::HeatmapMode::Input, plan::HeatmapMode::Output,
                                           plan::HeatmapMode::Difference, plan::HeatmapMode::Statistics}) {
                // Every other image with a selected statistic (dimmed elements), alternating per run.
                const int m = static_cast<int>(mode);
                s.name = name;
                s.mode = mode;
                s.sel = (k + m) % 2 ? r.layout.stat_count / 2 : -1;
                s.vmin = mode == plan::HeatmapMode::Difference ? -1.0f : -2.0f;
                s.vmax = 2.0f;
                check(s, static_cast<Colormap>((k + m) % 3), static_cast<GroupPalette>(k % 2));
            }
        }
    }

    void fail(const HeatmapScene& s, const std::string& what) {
        failures_.push_back({{"case", s.name + ", mode " + std::to_string(static_cast<int>(s.mode)) + ", selected " +
                                          std::to_string(s.sel) + ", cell " + std::to_string(s.tiles.cell)},
                             {"what", what}});
    }

    nlohmann::json report() const {
        return {{"cases", cases_},       {"pixels", pixels_},        {"failures", failures_},
                {"methods", methods_},   {"modes", modes_},          {"cells_below_pixel", cells_below_pixel_},
                {"selected", selected_}, {"zoomed_windows", zoomed_}};
    }

    webgpu::WgpuHeatmap& heatmap() { return fill_; }

private:
    webgpu::WgpuNormalizer& n_;
    webgpu::WgpuHeatmap fill_;
    int cases_ = 0, selected_ = 0, cells_below_pixel_ = 0, zoomed_ = 0;
    std::int64_t pixels_ = 0;
    nlohmann::json failures_ = nlohmann::json::array();
    std::map<std::string, int> methods_, modes_;
};

const core::Method kMethods[] = {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                                 core::Method::Rms};

// The comparison must see a wrong image: the device's statistics-mode pixels against the reference
// of another selected statistic.
bool negative_control(webgpu::WgpuNormalizer& n, webgpu::WgpuHeatmap& fill) {
    const core::Tensor x = make_tensor({2, 3, 4, 4}, core::Init::Randn, 44);
    const core::NormResult r = n.run(x, core::default_spec(core::Method::Instance), {});
    HeatmapScene s;
    s.x = x;
    s.y = r.y;
    s.stats = r.layout;
    s.tiles = views::TileLayout::fit(x.shape, 60, 40);
    s.sel = 1;
    const auto lut = views::colormap_lut(Colormap::Viridis);
    const auto palette = palette_of(s.stats.stat_count, GroupPalette::OkabeIto);
    const plan::HeatmapFillParams push = views::fill_push(s.tiles, s.mode, s.vmin, s.vmax, s.stats, 2, 256);
    const auto got = fill.fill(n.buffers().x, n.buffers().y, test::as_vec4s(palette), test::as_vec4s(lut), push);
    const test::PixelReference ref(s, lut, palette);
    for (int py = 0; py < s.tiles.height; ++py)
        for (int px = 0; px < s.tiles.width; ++px) {
            bool ok = false;
            for (std::uint32_t w : ref.pixel(px, py))
                ok = ok || test::same_color(got[static_cast<std::size_t>(py) * s.tiles.width + px], w);
            if (!ok) return true;
        }
    return false;
}

}  // namespace

nlohmann::json run_heatmap_tests(webgpu::WgpuNormalizer& normalizer) {
    const auto t0 = std::chrono::steady_clock::now();
    HeatmapSuite t(normalizer);
    std::mt19937_64 rng(2021);
    int k = 0;
    for (int rank : {4, 3, 5})
        for (core::Method m : kMethods)
            for (int tries = 0; tries < 20; ++tries) {
                const core::Shape4 s = test::random_shape(rank, {1, 2, 3, 5, 8, 13, 31}, rng);
                auto [spec, params] = test::random_config(m, s, rng);
                if (!test::valid(m, s, spec) || s.numel() > (1 << 14)) continue;
                core::Tensor x = make_tensor(s, core::Init::Randn, rng());
                if (k == 3) x.data[1] = std::numeric_limits<float>::quiet_NaN();  // the non-finite colour
                t.scenes(test::describe(s, spec), x, spec, params, k++);
                break;
            }
    nlohmann::json j = t.report();
    j["negative_control_detected"] = negative_control(normalizer, t.heatmap());
    j["ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return j;
}

}  // namespace normlab::web
