// HeatmapZoom (views/heatmap_zoom.hpp): zoom about a centre, pan, the clamp that keeps the image in the
// panel, and the mapping that hit-testing uses.
#include "heatmap_zoom.hpp"

#include <catch2/catch.hpp>

using namespace normlab::app;

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
