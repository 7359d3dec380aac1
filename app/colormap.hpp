// Colors of the heatmap: color lookup tables for values (uploaded to the heatmap shader
// and used by the legend, so both show the same colors) and one distinct color per statistic.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace normlab::app {

using Rgb = std::array<float, 3>;

enum class Colormap { Diverging, Viridis };
inline constexpr const char* kColormapNames[] = {"diverging (blue-white-red)", "viridis"};

inline constexpr std::uint32_t kLutSize = 256;

// kLutSize colors from low to high.
std::vector<Rgb> colormap_lut(Colormap map);

// The color of statistic s of `count`: neighbours differ in hue, brightness alternates.
Rgb stat_color(std::int64_t s, std::int64_t count);

// Packs a color as ImGui's IM_COL32 (ABGR in memory).
std::uint32_t to_imgui(const Rgb& c, float alpha = 1.0f);

}  // namespace normlab::app
