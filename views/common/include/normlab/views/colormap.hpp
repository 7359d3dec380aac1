// Colors of the heatmap: color lookup tables for values (uploaded to the heatmap shader
// and used by the legend, so both show the same colors) and one distinct color per statistic.
// Colorblind-safe choices: viridis and cividis (perceptually uniform, readable without
// red-green distinction), a blue-white-red diverging map (no red-green axis), and the
// Okabe–Ito categorical palette for statistic groups.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace normlab::views {

using Rgb = std::array<float, 3>;

enum class Colormap { Diverging, Viridis, Cividis };
inline constexpr const char* kColormapNames[] = {"diverging (blue-white-red)", "viridis", "cividis"};
inline constexpr const char* kColormapIds[] = {"diverging", "viridis", "cividis"};
enum class GroupPalette { OkabeIto, Hues };
inline constexpr const char* kGroupPaletteNames[] = {"Okabe-Ito (colorblind-safe)", "hues"};
inline constexpr const char* kGroupPaletteIds[] = {"okabe-ito", "hues"};

inline constexpr std::uint32_t kLutSize = 256;

// kLutSize colors from low to high.
std::vector<Rgb> colormap_lut(Colormap map);

// The color of statistic s of `count`. Hues: neighbours differ in hue, brightness
// alternates. Okabe–Ito: its 8 colors (grey for black), then again darker and lighter.
GroupPalette current_group_palette();  // the user's choice (View menu)
void set_group_palette(GroupPalette p);
Rgb stat_color(std::int64_t s, std::int64_t count, GroupPalette palette = current_group_palette());

// Packs a color as ImGui's IM_COL32 (ABGR in memory).
std::uint32_t to_imgui(const Rgb& c, float alpha = 1.0f);

// The colours as the heatmap fill kernels read them (heatmap.comp, heatmap.wgsl): one RGBA vec4 of floats
// each — statistic s's colour for s < count, and the kLutSize colours of a colormap.
std::vector<float> palette_rgba(std::int64_t count, GroupPalette palette);
std::vector<float> lut_rgba(Colormap map);

}  // namespace normlab::views
