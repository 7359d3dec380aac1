#include "normlab/cpu/cpu_heatmap.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace normlab::cpu {
namespace {

using Rgb = std::array<float, 3>;
constexpr Rgb kBackground{0.10f, 0.10f, 0.11f};
constexpr Rgb kNonFinite{1.0f, 0.0f, 1.0f};

struct Fill {
    const float *x, *y;
    const std::vector<float>&palette, &lut;
    const plan::HeatmapFillParams& F;

    std::uint32_t stat_of(std::uint32_t i) const { return (i / F.stat_stride) % F.stat_count; }
    float value_at(std::uint32_t i) const {
        if (F.mode == 0) return x[i];
        if (F.mode == 1) return y[i];
        return y[i] - x[i];
    }
    Rgb rgb(const std::vector<float>& table, std::size_t k) const {
        return {table[k * 4], table[k * 4 + 1], table[k * 4 + 2]};
    }
    Rgb color_of(float v) const {
        if (!std::isfinite(v)) return kNonFinite;
        float t = 0.5f;
        if (F.vmax > F.vmin) t = std::clamp((v - F.vmin) / (F.vmax - F.vmin), 0.0f, 1.0f);
        return rgb(lut, static_cast<std::size_t>(std::nearbyint(t * static_cast<float>(F.lut_size - 1))));
    }
    // The mean of up to 4×4 of the elements [w0, w1) × [h0, h1) the pixel covers.
    float covered_mean(std::uint32_t tile, float ix, float iy, std::uint32_t center) const {
        const float x0 = ix - 0.5f, y0 = iy - 0.5f;
        const auto w0 = static_cast<std::uint32_t>(std::max(x0, 0.0f) / F.cell);
        const std::uint32_t w1 = std::min(F.w, static_cast<std::uint32_t>((x0 + 1.0f) / F.cell) + 1u);
        const auto h0 = static_cast<std::uint32_t>(std::max(y0, 0.0f) / F.cell);
        const std::uint32_t h1 = std::min(F.h, static_cast<std::uint32_t>((y0 + 1.0f) / F.cell) + 1u);
        const std::uint32_t sw = std::max(1u, (w1 - w0 + 3u) / 4u), sh = std::max(1u, (h1 - h0 + 3u) / 4u);
        float sum = 0.0f, k = 0.0f;
        for (std::uint32_t yy = h0; yy < h1; yy += sh)
            for (std::uint32_t xx = w0; xx < w1; xx += sw) {
                sum += value_at(tile + yy * F.w + xx);
                k += 1.0f;
            }
        return k > 0.0f ? sum / k : value_at(center);
    }
    Rgb pixel(std::uint32_t px, std::uint32_t py) const;
};

Rgb mix(const Rgb& a, const Rgb& b, float t) {
    return {a[0] * (1 - t) + b[0] * t, a[1] * (1 - t) + b[1] * t, a[2] * (1 - t) + b[2] * t};
}

Rgb Fill::pixel(std::uint32_t px, std::uint32_t py) const {
    const float tw = static_cast<float>(F.w) * F.cell, th = static_cast<float>(F.h) * F.cell;
    const float fx = static_cast<float>(px) + 0.5f + F.org_x, fy = static_cast<float>(py) + 0.5f + F.org_y;
    if (!(fx >= 0.0f && fy >= 0.0f)) return kBackground;  // left of or above the grid (a zoomed window)
    const auto c = static_cast<std::uint32_t>(fx / (tw + F.gap));
    const auto n = static_cast<std::uint32_t>(fy / (th + F.gap));
    const float ix = fx - static_cast<float>(c) * (tw + F.gap), iy = fy - static_cast<float>(n) * (th + F.gap);
    if (!(c < F.c && n < F.n && ix < tw && iy < th)) return kBackground;
    const std::uint32_t w = std::min(F.w - 1u, static_cast<std::uint32_t>(ix / F.cell));
    const std::uint32_t h = std::min(F.h - 1u, static_cast<std::uint32_t>(iy / F.cell));
    const std::uint32_t tile = (n * F.c + c) * F.h * F.w;
    const std::uint32_t center = tile + h * F.w + w;
    Rgb color = F.mode == 3      ? rgb(palette, stat_of(center))
                : F.cell >= 1.0f ? color_of(value_at(center))
                                 : color_of(covered_mean(tile, ix, iy, center));
    if (F.sel_stat >= 0 && stat_of(center) != static_cast<std::uint32_t>(F.sel_stat)) {
        // Dimmed: statistics mode keeps a faint tint, value modes go grey (as the kernels).
        const float grey = color[0] * 0.299f + color[1] * 0.587f + color[2] * 0.114f;
        color = F.mode == 3 ? mix(color, kBackground, 0.7f) : mix(Rgb{grey, grey, grey}, kBackground, 0.75f);
    }
    return color;
}

// pack4x8unorm(vec4(c, 1)): red in the low byte.
std::uint32_t pack(const Rgb& c) {
    const auto unorm = [](float v) {
        return static_cast<std::uint32_t>(std::floor(0.5f + 255.0f * std::clamp(v, 0.0f, 1.0f)));
    };
    return unorm(c[0]) | unorm(c[1]) << 8 | unorm(c[2]) << 16 | 255u << 24;
}

}  // namespace

std::vector<std::uint32_t> fill_heatmap(const float* x, const float* y, std::size_t count,
                                        const std::vector<float>& palette, const std::vector<float>& lut,
                                        const plan::HeatmapFillParams& params) {
    const std::uint64_t numel = std::uint64_t{params.n} * params.c * params.h * params.w;
    if (numel > count) throw core::InputError("the heatmap's tensor has fewer values than its tiles show");
    if (params.mode == 3 && palette.size() < std::size_t{params.stat_count} * 4)
        throw core::InputError("the heatmap's palette has fewer colours than statistics");
    if (params.lut_size == 0 || lut.size() < std::size_t{params.lut_size} * 4)
        throw core::InputError("the heatmap's colour table is smaller than its lut_size");
    const Fill fill{x, y, palette, lut, params};
    std::vector<std::uint32_t> out(std::size_t{params.img_w} * params.img_h);
    for (std::uint32_t py = 0; py < params.img_h; ++py)
        for (std::uint32_t px = 0; px < params.img_w; ++px)
            out[std::size_t{py} * params.img_w + px] = pack(fill.pixel(px, py));
    return out;
}

}  // namespace normlab::cpu
