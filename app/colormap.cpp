#include "colormap.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::app {
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

}  // namespace

std::vector<Rgb> colormap_lut(Colormap map) {
    if (map == Colormap::Viridis)
        return interpolate({{0.267f, 0.005f, 0.329f}, {0.283f, 0.141f, 0.458f}, {0.254f, 0.265f, 0.530f},
                            {0.207f, 0.372f, 0.553f}, {0.164f, 0.471f, 0.558f}, {0.128f, 0.567f, 0.551f},
                            {0.135f, 0.659f, 0.518f}, {0.267f, 0.749f, 0.441f}, {0.478f, 0.821f, 0.318f},
                            {0.741f, 0.873f, 0.150f}, {0.993f, 0.906f, 0.144f}});
    // Blue - white - red (after Moreland's cool-warm), zero in the middle.
    return interpolate({{0.230f, 0.299f, 0.754f}, {0.408f, 0.541f, 0.925f}, {0.600f, 0.730f, 0.998f},
                        {0.788f, 0.843f, 0.937f}, {0.950f, 0.950f, 0.950f}, {0.958f, 0.793f, 0.700f},
                        {0.959f, 0.609f, 0.484f}, {0.870f, 0.397f, 0.306f}, {0.706f, 0.016f, 0.150f}});
}

Rgb stat_color(std::int64_t s, std::int64_t count) {
    (void)count;
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

}  // namespace normlab::app
