// The CPU reference of the heatmap fill (shaders/heatmap.comp and its WGSL twin shaders/wgsl/heatmap.wgsl),
// shared by the Vulkan shader test (tests/shaders/test_heatmap.cpp) and the browser's kernel test
// (web/src/heatmap_test.cpp): the colours a pixel may get from TileLayout's geometry and hit test,
// StatLayout::stat_of, the colour table and the palette (whichever the caller passes), in float32 as
// the kernels compute, and the packing and 1-unit comparison of RGBA8 pixels.
#pragma once
#include "normlab/views/heatmap_fill.hpp"

#include "normlab/core/tensor.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab::test {

using normlab::plan::HeatmapMode;
using views::TileLayout;
using Color = std::array<float, 3>;

// The colours both heatmap kernels use on their own (mirrored here, as the reference's rule).
inline constexpr Color kBackground{0.10f, 0.10f, 0.11f};
inline constexpr Color kNonFinite{1.0f, 0.0f, 1.0f};

// packUnorm4x8(vec4(c, 1)): red in the low byte.
std::uint32_t pack(const Color& c);
// Channels within 1 of each other (float rounding of the mixes and of packUnorm's round()), alpha 255.
bool same_color(std::uint32_t a, std::uint32_t b);
// RGBA floats (alpha 1) of `colors`, as the kernels' palette and colour-table buffers hold them.
std::vector<float> as_vec4s(const std::vector<Color>& colors);

// One image to fill: the tensors, their statistics, the geometry, the mode, range and selection.
struct HeatmapScene {
    std::string name;
    core::Tensor x, y;
    core::StatLayout stats;
    TileLayout tiles;
    plan::HeatmapMode mode = plan::HeatmapMode::Statistics;
    float vmin = -2.0f, vmax = 2.0f;
    std::int64_t sel = -1;       // the selected statistic, −1: none
    float org_x = 0, org_y = 0;  // a zoomed heatmap's window: pixel p shows the grid at p + 0.5 + org
};

class PixelReference {
public:
    PixelReference(const HeatmapScene& s, std::vector<Color> lut, std::vector<Color> palette);
    // The packed colours pixel (px, py) may have (several near a boundary or a rounding tie).
    std::vector<std::uint32_t> pixel(int px, int py) const;
    // The colour of element `offset` as the kernel draws it when a pixel shows exactly that element.
    std::vector<Color> element_colors(std::int64_t offset) const;

private:
    float value(std::int64_t i) const;
    std::vector<Color> lut(float v) const;
    std::vector<Color> highlight(std::vector<Color> colors, std::int64_t center) const;
    std::vector<Color> colors(float fx, float fy) const;
    const HeatmapScene& s_;
    std::vector<Color> lut_, palette_;
};

}  // namespace normlab::test
