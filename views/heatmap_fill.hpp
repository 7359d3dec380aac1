// The heatmap fill (shaders/heatmap.comp) as its callers see it: its parameters from a tile layout
// (the block itself, HeatmapFillParams, is the engine's: normlab/core/heatmap_fill_params.hpp), the
// bindings and the dispatch size. HeatmapView runs it every time the image changes; the shader tests
// (tests/shaders/test_heatmap.cpp) run the same kernel with the same push constants without a window.
#pragma once
#include "tile_layout.hpp"

#include "normlab/core/heatmap_fill_params.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cstdint>

namespace normlab::app {

inline constexpr const char* kFillShader = "heatmap.comp";
// Storage-buffer bindings of heatmap.comp, in this order: x, y (floats), the statistic palette (one vec4
// per statistic), the colour lookup table (lut_size vec4s) and the pixels (one packed RGBA8 uint each).
inline constexpr std::uint32_t kFillBindings = 5;

// The push constants that draw `tiles` (geometry and image size) in `mode` with the value range
// [vmin, vmax], the statistics of `stats` and the selected statistic `sel_stat` (−1: none).
inline HeatmapFillParams fill_push(const TileLayout& tiles, HeatmapMode mode, float vmin, float vmax,
                                   const StatLayout& stats, std::int64_t sel_stat, std::uint32_t lut_size) {
    const Shape4& s = tiles.shape;
    HeatmapFillParams p{};
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

// Workgroups along one image side of `pixels` pixels.
inline std::uint32_t fill_workgroups(int pixels) {
    return (static_cast<std::uint32_t>(pixels) + kHeatmapFillTile - 1) / kHeatmapFillTile;
}

}  // namespace normlab::app
