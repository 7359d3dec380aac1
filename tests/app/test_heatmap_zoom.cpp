// HeatmapZoom (normlab/views/heatmap_zoom.hpp): zoom about a centre, pan, the clamp that keeps the image in the
// panel, the mapping that hit-testing uses, a pinch's frames from TouchInput (no drift of the point under
// the fingers) and the fill's window (normlab/views/heatmap_fill.hpp), whose pixels show what hit-testing finds.
#include "normlab/views/heatmap_fill.hpp"
#include "normlab/views/heatmap_zoom.hpp"
#include "normlab/views/touch_input.hpp"

#include <catch2/catch.hpp>

#include <array>

using namespace normlab::views;

TEST_CASE("a pinch zooms about its centre: the image point under it stays", "[zoom]") {
    HeatmapZoom z;
    z.set_sizes(400, 200, 400, 300);
    CHECK_FALSE(z.zoomed());
    float ix = 0, iy = 0;
    z.to_image(100, 50, ix, iy);
    CHECK((ix == 100 && iy == 50));
    z.pinch(2, 100, 50);
    CHECK(z.zoom() == 2);
    z.to_image(100, 50, ix, iy);
    CHECK((ix == Approx(100) && iy == Approx(50)));
    z.to_image(300, 150, ix, iy);  // 200 units right of the centre: 100 image units
    CHECK((ix == Approx(200) && iy == Approx(100)));
    float sx = 0, sy = 0;
    z.to_panel(ix, iy, sx, sy);
    CHECK((sx == Approx(300) && sy == Approx(150)));
    z.pinch(1, 0, 0, -40, 10);  // a pan: everything moves with the fingers
    z.to_image(260, 160, ix, iy);
    CHECK((ix == Approx(200) && iy == Approx(100)));
    z.reset();
    CHECK_FALSE(z.zoomed());
}

TEST_CASE("zoom stays within 1 and the maximum; the wheel zooms in steps", "[zoom]") {
    HeatmapZoom z;
    z.set_sizes(100, 100, 100, 100);
    z.pinch(0.5f, 50, 50);
    CHECK(z.zoom() == 1);
    CHECK_FALSE(z.zoomed());
    z.pinch(1000, 50, 50);
    CHECK(z.zoom() == HeatmapZoom::kMaxZoom);
    z.reset();
    z.wheel(2, 50, 50);
    CHECK(z.zoom() == Approx(HeatmapZoom::kWheelStep * HeatmapZoom::kWheelStep));
    z.wheel(-2, 50, 50);
    CHECK(z.zoom() == Approx(1));
    z.pinch(0, 50, 50);  // nonsense factors change nothing
    z.pinch(-3, 50, 50);
    CHECK(z.zoom() == Approx(1));
}

TEST_CASE("a pan never takes the image out of the panel entirely", "[zoom]") {
    HeatmapZoom z;
    z.set_sizes(400, 200, 400, 300);
    z.pinch(4, 0, 0);  // 1600 × 800
    z.pinch(1, 0, 0, -1e6f, -1e6f);
    float sx = 0, sy = 0;
    z.to_panel(400, 200, sx, sy);                    // the image's bottom-right corner
    CHECK((sx == Approx(100) && sy == Approx(75)));  // a quarter of the panel still shows it
    z.pinch(1, 0, 0, 2e6f, 2e6f);
    z.to_panel(0, 0, sx, sy);  // its top-left
    CHECK((sx == Approx(300) && sy == Approx(225)));
    z.pinch(0.25f, 200, 150);  // back to zoom 1: the image where the panel still sees part of it
    CHECK(z.zoom() == 1);
    z.to_panel(0, 0, sx, sy);
    CHECK((sx <= 300 && sy <= 225));
    z.set_sizes(40, 20, 400, 300);  // a small image: all of it stays in
    z.reset();
    z.pinch(1, 0, 0, 1e6f, 1e6f);
    z.to_panel(40, 20, sx, sy);
    CHECK((sx == Approx(400) && sy == Approx(300)));
}

TEST_CASE("two fingers through TouchInput: the image point under their centre stays under it", "[zoom]") {
    HeatmapZoom z;
    z.set_sizes(300, 200, 300, 200);
    TouchInput in;
    in.start(1, 100, 100, 0.0);
    in.start(2, 140, 120, 0.0);
    float ix0 = 0, iy0 = 0;
    z.to_image(120, 110, ix0, iy0);  // under the fingers' first centre
    // The fingers spread and move together, a few pixels a frame, as a hand does.
    float cx = 120, cy = 110;
    for (int k = 1; k <= 30; ++k) {
        const float spread = 1.0f + 0.06f * static_cast<float>(k), dx = 1.5f * static_cast<float>(k);
        in.move(1, 100 + dx - 20 * (spread - 1), 100 + 0.5f * dx - 10 * (spread - 1), 0.016 * k);
        in.move(2, 140 + dx + 20 * (spread - 1), 120 + 0.5f * dx + 10 * (spread - 1), 0.016 * k);
        const auto f = in.frame(0.016 * k + 0.001);
        REQUIRE(f.has_value());
        REQUIRE(f->pinching);
        z.pinch_frame(f->zoom, f->x, f->y, f->pan_x, f->pan_y);
        cx = f->x;
        cy = f->y;
    }
    CHECK(z.zoom() == Approx(2.8).epsilon(1e-3));
    float ix = 0, iy = 0;
    z.to_image(cx, cy, ix, iy);
    CHECK((ix == Approx(ix0).margin(1e-2) && iy == Approx(iy0).margin(1e-2)));
}

TEST_CASE("the fill's window: never larger than the panel, and its pixels are what hit-testing maps to", "[zoom]") {
    const normlab::core::Shape4 shape{2, 3, 5, 4};
    const TileLayout t = TileLayout::fit(shape, 300, 200);
    FillWindow w = fill_window(t, 1, 0, 0);  // unzoomed: the whole image, as before zooming existed
    CHECK((w.x == 0 && w.y == 0 && w.org_x == 0 && w.org_y == 0));
    CHECK((w.tiles.width == t.width && w.tiles.height == t.height && w.tiles.cell == t.cell));
    HeatmapZoom z;
    const float iw = static_cast<float>(t.width), ih = static_cast<float>(t.height);
    z.set_sizes(iw, ih, iw, ih);
    const std::array<std::array<float, 3>, 3> pinches{{{3, 40, 30}, {16, 10, 100}, {0.5f, 200, 50}}};
    for (const auto& [factor, cx, cy] : pinches) {
        z.pinch(factor, cx, cy);
        w = fill_window(t, z.zoom(), z.offset_x(), z.offset_y());
        INFO("zoom " << z.zoom() << " offset " << z.offset_x() << ", " << z.offset_y());
        CHECK((w.tiles.width <= t.width && w.tiles.height <= t.height && w.tiles.width >= 1));
        CHECK(w.tiles.cell == Approx(t.cell * z.zoom()));
        int compared = 0;
        // Every pixel of the window shows the element hit-testing finds under that pixel's centre.
        for (int py = 0; py < w.tiles.height; py += 3)
            for (int px = 0; px < w.tiles.width; px += 3) {
                const float sx = static_cast<float>(w.x + px) + 0.5f, sy = static_cast<float>(w.y + py) + 0.5f;
                float ix = 0, iy = 0;
                z.to_image(sx, sy, ix, iy);
                const auto hit = t.element_at(ix, iy);
                const auto drawn = w.tiles.element_at(static_cast<float>(px) + 0.5f + w.org_x,
                                                      static_cast<float>(py) + 0.5f + w.org_y);
                // Away from an edge of a cell or a tile (float rounding there may fall either way) both agree.
                constexpr float e = 1e-3f;
                if (t.element_at(ix - e, iy) != t.element_at(ix + e, iy) ||
                    t.element_at(ix, iy - e) != t.element_at(ix, iy + e))
                    continue;
                CHECK(hit == drawn);
                ++compared;
            }
        CHECK(compared > 100);
    }
}
