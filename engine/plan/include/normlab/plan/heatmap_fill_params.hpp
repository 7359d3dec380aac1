// The heatmap fill's parameter block, one definition for both backends: shaders/heatmap.comp's
// Push (a push constant, Vulkan) and shaders/wgsl/heatmap.wgsl's Fill (a uniform padded to 80 bytes,
// WebGPU). normlab/views/heatmap_fill.hpp's fill_push() fills it from a tile layout; each backend's fill op
// (the desktop's HeatmapView, engine/webgpu's WgpuHeatmap) takes it as it is.
#pragma once
#include <cstdint>

namespace normlab::plan {

enum class HeatmapMode { Input = 0, Output = 1, Difference = 2, Statistics = 3 };

// An N (rows) × C (columns) grid of H×W tiles of `cell` pixels, `gap` apart, of which the fill draws the
// img_w × img_h window whose top-left corner is at (org_x, org_y) of the grid's pixels: pixel p shows the
// grid at p + 0.5 + org. A zoomed heatmap passes its zoomed cell and gap and the window the panel shows,
// so the image never grows with the zoom; an unzoomed one passes org 0 and the whole grid.
struct HeatmapFillParams {
    std::uint32_t n, c, h, w, img_w, img_h;
    float cell, gap;
    std::uint32_t mode;  // HeatmapMode
    float vmin, vmax;
    std::uint32_t stat_count, stat_stride;
    std::int32_t sel_stat;  // -1: no statistic selected
    std::uint32_t lut_size;
    float org_x = 0, org_y = 0;  // the window's top-left corner in the grid's pixels
    bool operator==(const HeatmapFillParams&) const = default;
};
static_assert(sizeof(HeatmapFillParams) == 68);

inline constexpr std::uint32_t kHeatmapFillTile = 16;  // both kernels' workgroups are 16 × 16 pixels

}  // namespace normlab::plan
