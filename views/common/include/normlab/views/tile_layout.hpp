// TileLayout: where the heatmap draws each element — an N (rows) × C (columns) grid of H×W
// tiles, as in the Group Normalization paper's figure — in pixels of the heatmap image.
// The compute shader (shaders/heatmap.comp) and the mouse hit test use this one geometry.
#pragma once
#include "normlab/core/shape.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>

namespace normlab::views {

struct TileLayout {
    core::Shape4 shape;
    float cell = 1.0f;          // pixels per element (may be < 1: several elements per pixel)
    float gap = 2.0f;           // pixels between tiles
    int width = 1, height = 1;  // image size in pixels

    float tile_w() const { return static_cast<float>(shape.w) * cell; }
    float tile_h() const { return static_cast<float>(shape.h) * cell; }

    // The largest square cells that fit the grid into avail_w × avail_h pixels.
    static TileLayout fit(const core::Shape4& s, float avail_w, float avail_h) {
        TileLayout t;
        t.shape = s;
        const auto maxdim = std::max(s.n, s.c);
        t.gap = maxdim > 48 ? 1.0f : maxdim > 16 ? 2.0f : 4.0f;
        float cw = (avail_w - t.gap * static_cast<float>(s.c - 1)) / static_cast<float>(s.c * s.w);
        float ch = (avail_h - t.gap * static_cast<float>(s.n - 1)) / static_cast<float>(s.n * s.h);
        t.cell = std::max(0.05f, std::min({cw, ch, 160.0f}));  // big cells for the seeds' tiny examples
        if (t.cell >= 2.0f) t.cell = std::floor(t.cell);       // whole pixels when elements are big
        t.width = std::max(
            1, static_cast<int>(std::ceil(t.tile_w() * static_cast<float>(s.c) + t.gap * static_cast<float>(s.c - 1))));
        t.height = std::max(
            1, static_cast<int>(std::ceil(t.tile_h() * static_cast<float>(s.n) + t.gap * static_cast<float>(s.n - 1))));
        return t;
    }

    // The element under pixel (x, y) of the image, or nothing over a gap or outside.
    std::optional<std::array<std::int64_t, 4>> element_at(float x, float y) const {
        if (x < 0 || y < 0) return std::nullopt;
        auto c = static_cast<std::int64_t>(x / (tile_w() + gap));
        auto n = static_cast<std::int64_t>(y / (tile_h() + gap));
        if (c >= shape.c || n >= shape.n) return std::nullopt;
        float ix = x - static_cast<float>(c) * (tile_w() + gap);
        float iy = y - static_cast<float>(n) * (tile_h() + gap);
        if (ix >= tile_w() || iy >= tile_h()) return std::nullopt;
        auto w = std::min(shape.w - 1, static_cast<std::int64_t>(ix / cell));
        auto h = std::min(shape.h - 1, static_cast<std::int64_t>(iy / cell));
        return std::array<std::int64_t, 4>{n, c, h, w};
    }

    // Top-left pixel of element (n, c, h, w); its size is cell × cell.
    std::array<float, 2> element_pos(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) const {
        return {static_cast<float>(c) * (tile_w() + gap) + static_cast<float>(w) * cell,
                static_cast<float>(n) * (tile_h() + gap) + static_cast<float>(h) * cell};
    }
};

}  // namespace normlab::views
