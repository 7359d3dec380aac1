#include "heatmap_reference.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace normlab::test {

std::uint32_t pack(const Color& c) {
    std::uint32_t out = 255u << 24;
    for (int i = 0; i < 3; ++i) {
        const float v = std::clamp(c[static_cast<std::size_t>(i)], 0.0f, 1.0f) * 255.0f;
        out |= static_cast<std::uint32_t>(std::lround(v)) << (8 * i);
    }
    return out;
}

bool same_color(std::uint32_t a, std::uint32_t b) {
    if ((a >> 24) != (b >> 24)) return false;
    for (int i = 0; i < 3; ++i) {
        const int ca = static_cast<int>((a >> (8 * i)) & 255u), cb = static_cast<int>((b >> (8 * i)) & 255u);
        if (std::abs(ca - cb) > 1) return false;
    }
    return true;
}

std::vector<float> as_vec4s(const std::vector<Color>& colors) {
    std::vector<float> v;
    for (const Color& c : colors) v.insert(v.end(), {c[0], c[1], c[2], 1.0f});
    return v;
}

// The reference of one pixel: the colours heatmap.comp may give it, computed from TileLayout (the app's
// geometry and hit test) and StatLayout::stat_of, in float32 as the shader computes. Near a boundary
// (a pixel centre within 1e-3 px of a cell or tile edge, a colour-table position within 1e-3 of a
// rounding tie) either side is accepted, so the test holds on devices whose division is not exact.
PixelReference::PixelReference(const HeatmapScene& s, std::vector<Color> lut, std::vector<Color> palette)
    : s_(s), lut_(std::move(lut)), palette_(std::move(palette)) {}

std::vector<std::uint32_t> PixelReference::pixel(int px, int py) const {
    std::vector<std::uint32_t> out;
    constexpr float j = 1e-3f;
    for (float dy : {0.0f, -j, j})
        for (float dx : {0.0f, -j, j})
            for (const Color& c :
                 colors(static_cast<float>(px) + 0.5f + s_.org_x + dx, static_cast<float>(py) + 0.5f + s_.org_y + dy))
                if (std::find(out.begin(), out.end(), pack(c)) == out.end()) out.push_back(pack(c));
    return out;
}

// The colour of element `offset` as heatmap.comp draws it when a pixel shows exactly that element.
std::vector<Color> PixelReference::element_colors(std::int64_t offset) const {
    std::vector<Color> base;
    if (s_.mode == plan::HeatmapMode::Statistics)
        base.push_back(palette_[static_cast<std::size_t>(s_.stats.stat_of(offset))]);
    else
        base = lut(value(offset));
    return highlight(base, offset);
}

float PixelReference::value(std::int64_t i) const {
    const auto u = static_cast<std::size_t>(i);
    if (s_.mode == plan::HeatmapMode::Input) return s_.x.data[u];
    if (s_.mode == plan::HeatmapMode::Output) return s_.y.data[u];
    return s_.y.data[u] - s_.x.data[u];
}

// Values through the colour table over [vmin, vmax] (clamped; a constant range maps to the middle).
std::vector<Color> PixelReference::lut(float v) const {
    if (!std::isfinite(v)) return {kNonFinite};
    const volatile float range = s_.vmax - s_.vmin;
    const volatile float rel = v - s_.vmin;
    const float t = s_.vmax > s_.vmin ? std::clamp(rel / range, 0.0f, 1.0f) : 0.5f;
    const float pos = t * static_cast<float>(lut_.size() - 1);
    const float fl = std::floor(pos);
    const auto i = static_cast<std::size_t>(fl);
    if (std::abs(pos - fl - 0.5f) < 1e-3f) return {lut_[i], lut_[std::min<std::size_t>(i + 1, lut_.size() - 1)]};
    return {lut_[static_cast<std::size_t>(std::lround(pos))]};
}

// Elements of every statistic but the selected one are dimmed: statistics mode towards the
// background, value modes to grey and then towards the background.
std::vector<Color> PixelReference::highlight(std::vector<Color> colors, std::int64_t center) const {
    if (s_.sel < 0 || s_.stats.stat_of(center) == s_.sel) return colors;
    for (Color& c : colors) {
        const float grey = c[0] * 0.299f + c[1] * 0.587f + c[2] * 0.114f;
        for (std::size_t k = 0; k < 3; ++k)
            c[k] = s_.mode == plan::HeatmapMode::Statistics ? c[k] * 0.3f + kBackground[k] * 0.7f
                                                            : grey * 0.25f + kBackground[k] * 0.75f;
    }
    return colors;
}

std::vector<Color> PixelReference::colors(float fx, float fy) const {
    const TileLayout& t = s_.tiles;
    const auto e = t.element_at(fx, fy);
    if (!e) return {kBackground};
    const auto [n, c, h, w] = *e;
    const std::int64_t tile = (n * t.shape.c + c) * t.shape.h * t.shape.w;
    const std::int64_t center = tile + h * t.shape.w + w;
    if (s_.mode == plan::HeatmapMode::Statistics || t.cell >= 1.0f) return element_colors(center);
    // An element smaller than a pixel: the mean of up to 4×4 of the elements the pixel covers.
    const float ix = fx - static_cast<float>(c) * (t.tile_w() + t.gap);
    const float iy = fy - static_cast<float>(n) * (t.tile_h() + t.gap);
    const float x0 = ix - 0.5f, y0 = iy - 0.5f;
    const auto W = static_cast<std::uint32_t>(t.shape.w), H = static_cast<std::uint32_t>(t.shape.h);
    const auto w0 = static_cast<std::uint32_t>(std::max(x0, 0.0f) / t.cell);
    const auto w1 = std::min(W, static_cast<std::uint32_t>((x0 + 1.0f) / t.cell) + 1u);
    const auto h0 = static_cast<std::uint32_t>(std::max(y0, 0.0f) / t.cell);
    const auto h1 = std::min(H, static_cast<std::uint32_t>((y0 + 1.0f) / t.cell) + 1u);
    const std::uint32_t sw = std::max(1u, (w1 - w0 + 3u) / 4u), sh = std::max(1u, (h1 - h0 + 3u) / 4u);
    float sum = 0.0f, k = 0.0f;
    for (std::uint32_t yy = h0; yy < h1; yy += sh)
        for (std::uint32_t xx = w0; xx < w1; xx += sw) {
            sum += value(tile + yy * W + xx);
            k += 1.0f;
        }
    return highlight(lut(k > 0.0f ? sum / k : value(center)), center);
}

}  // namespace normlab::test
