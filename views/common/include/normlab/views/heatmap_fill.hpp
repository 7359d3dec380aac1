// The heatmap fill (shaders/heatmap.comp) as its callers see it: its parameters from a tile layout
// (the block itself, HeatmapFillParams, is the engine's: normlab/plan/heatmap_fill_params.hpp), the
// bindings and the dispatch size. HeatmapView runs it every time the image changes; the shader tests
// (tests/shaders/test_heatmap.cpp) run the same kernel with the same push constants without a window.
#pragma once
#include "normlab/views/tile_layout.hpp"

#include "normlab/plan/heatmap_fill_params.hpp"
#include "normlab/core/stat_layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace normlab::views {

inline constexpr const char* kFillShader = "heatmap.comp";
// Storage-buffer bindings of heatmap.comp, in this order: x, y (floats), the statistic palette (one vec4
// per statistic), the colour lookup table (lut_size vec4s) and the pixels (one packed RGBA8 uint each).
inline constexpr std::uint32_t kFillBindings = 5;

// The push constants that draw `tiles` (geometry and image size) in `mode` with the value range
// [vmin, vmax], the statistics of `stats` and the selected statistic `sel_stat` (−1: none).
inline plan::HeatmapFillParams fill_push(const TileLayout& tiles, plan::HeatmapMode mode, float vmin, float vmax,
                                         const core::StatLayout& stats, std::int64_t sel_stat, std::uint32_t lut_size) {
    const core::Shape4& s = tiles.shape;
    plan::HeatmapFillParams p{};
    p.n = static_cast<std::uint32_t>(s.n);
    p.c = static_cast<std::uint32_t>(s.c);
    p.h = static_cast<std::uint32_t>(s.h);
    p.w = static_cast<std::uint32_t>(s.w);
    p.img_w = static_cast<std::uint32_t>(tiles.width);
    p.img_h = static_cast<std::uint32_t>(tiles.height);
    p.cell = tiles.cell;
    p.gap = tiles.gap;
    p.mode = static_cast<std::uint32_t>(mode);
    p.vmin = vmin;
    p.vmax = vmax;
    p.stat_count = static_cast<std::uint32_t>(stats.stat_count);
    p.stat_stride = static_cast<std::uint32_t>(stats.stat_stride);
    p.sel_stat = static_cast<std::int32_t>(sel_stat);
    p.lut_size = lut_size;
    return p;
}

// The window of a zoomed image that its panel (the unzoomed image's place, `tiles` large) shows, for
// the fill: the grid zoomed (cell and gap times `zoom`) and cut to the window (its width × height), the
// window's top-left corner in the zoomed grid (org) and in the panel (x, y). The image point p (pixels at
// zoom 1) is drawn at offset + p · zoom of the panel (heatmap_zoom.hpp), offset in pixels. The window is
// never larger than the panel, whatever the zoom (a fill of zoom × the full image would not fit a
// WebGPU binding at 16×).
struct FillWindow {
    TileLayout tiles;
    float org_x = 0, org_y = 0;
    int x = 0, y = 0;
};

inline FillWindow fill_window(const TileLayout& tiles, float zoom, float offset_x, float offset_y) {
    FillWindow f;
    f.tiles = tiles;
    f.tiles.cell = tiles.cell * zoom;
    f.tiles.gap = tiles.gap * zoom;
    // One side: [first, last) of the panel's pixels that the zoomed image covers, at least one pixel.
    auto side = [zoom](int size, float offset, int& first, float& org) {
        const float end = offset + static_cast<float>(size) * zoom;
        first = std::clamp(static_cast<int>(std::floor(std::max(offset, 0.0f))), 0, size - 1);
        const int last =
            std::clamp(static_cast<int>(std::ceil(std::min(end, static_cast<float>(size)))), first + 1, size);
        org = static_cast<float>(first) - offset;
        return last - first;
    };
    f.tiles.width = side(tiles.width, offset_x, f.x, f.org_x);
    f.tiles.height = side(tiles.height, offset_y, f.y, f.org_y);
    return f;
}

// The same for the window `win` of a zoomed image (fill_window).
inline plan::HeatmapFillParams fill_push(const FillWindow& win, plan::HeatmapMode mode, float vmin, float vmax,
                                         const core::StatLayout& stats, std::int64_t sel_stat, std::uint32_t lut_size) {
    plan::HeatmapFillParams p = fill_push(win.tiles, mode, vmin, vmax, stats, sel_stat, lut_size);
    p.org_x = win.org_x;
    p.org_y = win.org_y;
    return p;
}

// Workgroups along one image side of `pixels` pixels.
inline std::uint32_t fill_workgroups(int pixels) {
    return (static_cast<std::uint32_t>(pixels) + plan::kHeatmapFillTile - 1) / plan::kHeatmapFillTile;
}

}  // namespace normlab::views
