#include "normlab/views/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::views {
namespace {

std::vector<Rgb> interpolate(const std::vector<Rgb>& stops) {
    std::vector<Rgb> out(kLutSize);
    for (std::uint32_t i = 0; i < kLutSize; ++i) {
        float t = static_cast<float>(i) / static_cast<float>(kLutSize - 1) * static_cast<float>(stops.size() - 1);
        auto k = std::min(static_cast<std::size_t>(t), stops.size() - 2);
        float f = t - static_cast<float>(k);
        for (int j = 0; j < 3; ++j) out[i][j] = stops[k][j] * (1 - f) + stops[k + 1][j] * f;
    }
    return out;
}

Rgb hsv(float h, float s, float v) {
    h = std::fmod(h, 1.0f) * 6.0f;
    int i = static_cast<int>(h);
    float f = h - static_cast<float>(i);
    float p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    switch (i % 6) {
        case 0: return {v, t, p};
        case 1: return {q, v, p};
        case 2: return {p, v, t};
        case 3: return {p, q, v};
        case 4: return {t, p, v};
        default: return {v, p, q};
    }
}

GroupPalette g_palette = GroupPalette::OkabeIto;

}  // namespace

GroupPalette current_group_palette() { return g_palette; }
void set_group_palette(GroupPalette p) { g_palette = p; }

std::vector<Rgb> colormap_lut(Colormap map) {
    if (map == Colormap::Cividis)
        return interpolate({{0.000f, 0.135f, 0.305f},
                            {0.106f, 0.208f, 0.427f},
                            {0.278f, 0.290f, 0.424f},
                            {0.404f, 0.384f, 0.439f},
                            {0.510f, 0.482f, 0.467f},
                            {0.624f, 0.584f, 0.459f},
                            {0.753f, 0.690f, 0.416f},
                            {0.886f, 0.808f, 0.325f},
                            {0.996f, 0.910f, 0.220f}});
    if (map == Colormap::Viridis)
        return interpolate({{0.267f, 0.005f, 0.329f},
                            {0.283f, 0.141f, 0.458f},
                            {0.254f, 0.265f, 0.530f},
                            {0.207f, 0.372f, 0.553f},
                            {0.164f, 0.471f, 0.558f},
                            {0.128f, 0.567f, 0.551f},
                            {0.135f, 0.659f, 0.518f},
                            {0.267f, 0.749f, 0.441f},
                            {0.478f, 0.821f, 0.318f},
                            {0.741f, 0.873f, 0.150f},
                            {0.993f, 0.906f, 0.144f}});
    // Blue - white - red (after Moreland's cool-warm), zero in the middle.
    return interpolate({{0.230f, 0.299f, 0.754f},
                        {0.408f, 0.541f, 0.925f},
                        {0.600f, 0.730f, 0.998f},
                        {0.788f, 0.843f, 0.937f},
                        {0.950f, 0.950f, 0.950f},
                        {0.958f, 0.793f, 0.700f},
                        {0.959f, 0.609f, 0.484f},
                        {0.870f, 0.397f, 0.306f},
                        {0.706f, 0.016f, 0.150f}});
}

Rgb stat_color(std::int64_t s, std::int64_t count, GroupPalette palette) {
    (void)count;
    if (palette == GroupPalette::OkabeIto) {
        static const Rgb kOkabeIto[] = {{0.902f, 0.624f, 0.000f}, {0.337f, 0.706f, 0.914f}, {0.000f, 0.620f, 0.451f},
                                        {0.941f, 0.894f, 0.259f}, {0.000f, 0.447f, 0.698f}, {0.835f, 0.369f, 0.000f},
                                        {0.800f, 0.475f, 0.655f}, {0.600f, 0.600f, 0.600f}};
        Rgb c = kOkabeIto[s % 8];
        const std::int64_t round = (s / 8) % 3;  // beyond 8 groups: the same hues darker, then lighter
        const float k = round == 0 ? 1.0f : round == 1 ? 0.62f : 1.0f;
        for (auto& v : c) v = round == 2 ? v + (1.0f - v) * 0.45f : v * k;
        return c;
    }
    // Golden-ratio hue steps keep neighbouring statistics far apart on the color wheel.
    float h = std::fmod(0.08f + 0.618034f * static_cast<float>(s), 1.0f);
    float v = (s % 2 == 0) ? 0.95f : 0.75f;
    float sat = (s / 2) % 2 == 0 ? 0.65f : 0.85f;
    return hsv(h, sat, v);
}

std::uint32_t to_imgui(const Rgb& c, float alpha) {
    auto b = [](float v) { return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    return b(c[0]) | (b(c[1]) << 8) | (b(c[2]) << 16) | (b(alpha) << 24);
}

namespace {
std::vector<float> rgba(const std::vector<Rgb>& colors) {
    std::vector<float> v;
    v.reserve(colors.size() * 4);
    for (const Rgb& c : colors) v.insert(v.end(), {c[0], c[1], c[2], 1.0f});
    return v;
}
}  // namespace

std::vector<float> palette_rgba(std::int64_t count, GroupPalette palette) {
    std::vector<Rgb> colors;
    colors.reserve(static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
    for (std::int64_t s = 0; s < count; ++s) colors.push_back(stat_color(s, count, palette));
    return rgba(colors);
}

std::vector<float> lut_rgba(Colormap map) { return rgba(colormap_lut(map)); }

}  // namespace normlab::views
