// The heatmap fill's parameter block, one definition for both backends: shaders/heatmap.comp's
// Push (a push constant, Vulkan) and shaders/wgsl/heatmap.wgsl's Fill (a uniform padded to 64 bytes,
// WebGPU). views/heatmap_fill.hpp's fill_push() fills it from a tile layout; each backend's fill op
// (the desktop's HeatmapView, engine/webgpu's WgpuHeatmap) takes it as it is.
#pragma once
#include <cstdint>

namespace normlab {

enum class HeatmapMode { Input = 0, Output = 1, Difference = 2, Statistics = 3 };

// An N (rows) × C (columns) grid of H×W tiles of `cell` pixels, `gap` apart, in an img_w × img_h image.
struct HeatmapFillParams {
    std::uint32_t n, c, h, w, img_w, img_h;
    float cell, gap;
    std::uint32_t mode;  // HeatmapMode
    float vmin, vmax;
    std::uint32_t stat_count, stat_stride;
    std::int32_t sel_stat;  // -1: no statistic selected
    std::uint32_t lut_size;
    bool operator==(const HeatmapFillParams&) const = default;
};
static_assert(sizeof(HeatmapFillParams) == 60);

inline constexpr std::uint32_t kHeatmapFillTile = 16;  // both kernels' workgroups are 16 × 16 pixels

}  // namespace normlab
