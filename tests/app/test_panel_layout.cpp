// The app's panel layout as a pure function of sizes (normlab/views/panel_layout.hpp): over projector and
// desktop display sizes and every combination of what is shown, the panels lie on the display,
// never overlap, and together cover it below the menu bar; presenter mode keeps its heatmap large.
#include "normlab/views/panel_layout.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace normlab;
using namespace normlab::views;

namespace {

// Dear ImGui's metrics for a font of `px` pixels with the app's style (padding 8, spacing 4).
LayoutMetrics metrics(float width, float height, float px) {
    LayoutMetrics m;
    m.width = width;
    m.height = height;
    m.font_size = px;
    m.text_line_h = px;
    m.line_spacing_h = px + 4;
    m.frame_h = px + 6;
    m.top = m.frame_h;
    m.padding_x = m.padding_y = 8;
    m.item_spacing_y = 4;
    m.status_h = std::max(m.frame_h + 4 + 6, m.text_line_h + 2 * m.padding_y + 2);
    return m;
}

std::vector<Rect> panels(const PanelRects& r) {
    std::vector<Rect> v{r.status};
    for (const auto& o :
         {r.heatmap, r.explain, r.controls, r.pictures, r.histograms, r.lesson, r.stats, r.tabs, r.train})
        if (o) v.push_back(*o);
    return v;
}

float overlap(const Rect& a, const Rect& b) {
    const float w = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
    const float h = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
    return w > 0 && h > 0 ? w * h : 0.0f;
}

void check_tiles(const PanelRects& r, const LayoutMetrics& m, const std::string& what) {
    INFO(what);
    float area = 0;
    const auto v = panels(r);
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Rect& a = v[i];
        CHECK(a.w > 0);
        CHECK(a.h >= 0);
        CHECK(a.x >= 0);
        CHECK(a.y >= m.top - 0.01f);
        CHECK(a.x + a.w <= m.width + 0.01f);
        CHECK(a.y + a.h <= m.height + 0.01f);
        area += a.w * a.h;
        for (std::size_t j = i + 1; j < v.size(); ++j) CHECK(overlap(a, v[j]) < 1.0f);
    }
    const float want = m.width * (m.height - m.top);
    CHECK(std::abs(area - want) <= 0.001f * want);  // no gap: the panels cover the display
    // The PNG export's rectangle holds the heatmap and the histograms.
    if (r.heatmap) CHECK(overlap(r.figure, *r.heatmap) >= r.heatmap->w * r.heatmap->h - 1);
    if (r.histograms) CHECK(overlap(r.figure, *r.histograms) >= r.histograms->w * r.histograms->h - 1);
}

}  // namespace

TEST_CASE("the panels tile the display in both layouts, whatever is shown", "[layout]") {
    const std::vector<std::pair<float, float>> sizes{{1280, 720}, {1366, 768}, {1600, 900}, {1920, 1080}, {3840, 2160}};
    for (const auto& [w, h] : sizes)
        for (float px : {17.0f, 26.0f, 34.0f})
            for (unsigned bits = 0; bits < 128; ++bits) {
                LayoutContent c;
                c.shape = core::Shape4{8, 6, 4, 4};
                c.pictures = bits & 1;
                c.lessons = bits & 2;
                c.compare = bits & 4;
                c.pair = bits & 8;
                c.gradient = bits & 16;
                c.cube = bits & 32;
                c.sync = bits & 64;
                const LayoutMetrics m = metrics(w, h, px);
                const std::string what = std::to_string(int(w)) + "x" + std::to_string(int(h)) + " font " +
                                         std::to_string(int(px)) + " content " + std::to_string(bits);
                const PanelRects normal = normal_layout(m, c);
                check_tiles(normal, m, "normal " + what);
                CHECK(normal.controls.has_value());
                CHECK(normal.stats.has_value());
                CHECK(normal.lesson.has_value() == c.lessons);
                CHECK(normal.pictures.has_value() == c.pictures);
                const PanelRects presenter = presenter_layout(m, c);
                check_tiles(presenter, m, "presenter " + what);
                CHECK_FALSE(presenter.controls.has_value());
                CHECK_FALSE(presenter.stats.has_value());
                // On a projector the heatmap keeps at least about a third of the body.
                const float body = m.height - m.status_h - m.top;
                CHECK(presenter.heatmap->h >= std::min(body * 0.38f, 2 * m.text_line_h + m.font_size * 6) - 1);
            }
}

TEST_CASE("presenter mode sizes a lone heatmap to its tiles and measures its chrome", "[layout]") {
    const LayoutMetrics m = metrics(1920, 1080, 34);
    const float body = m.height - m.status_h - m.top;
    LayoutContent wide;
    wide.shape = core::Shape4{2, 16, 4, 4};  // a wide grid: half the body is enough
    const PanelRects a = presenter_layout(m, wide);
    CHECK(a.measure_heat_chrome);
    CHECK(a.heatmap->h == std::floor(body * 0.5f));
    LayoutContent tall;
    tall.shape = core::Shape4{16, 2, 4, 4};  // a tall grid: as high as leaves the histograms their lines
    const PanelRects b = presenter_layout(m, tall);
    CHECK(b.heatmap->h > a.heatmap->h);
    REQUIRE(b.histograms.has_value());
    CHECK(b.histograms->h >= m.frame_h + 6.5f * m.line_spacing_h - 1);
    LayoutContent compare = wide;
    compare.compare = true;  // the compare view takes the whole height, no histograms
    const PanelRects c = presenter_layout(m, compare);
    CHECK(c.heatmap->h == body);
    CHECK_FALSE(c.histograms.has_value());
    CHECK_FALSE(c.measure_heat_chrome);
}

namespace {

// Every content combination of the tests above on a phone's or a tablet's screen, each phone tab.
void check_touch_screens(float w, float h, float px, ScreenForm form) {
    const LayoutMetrics m = metrics(w, h, px);
    REQUIRE(screen_form(m) == form);
    for (unsigned bits = 0; bits < 128; ++bits)
        for (int tab = 0; tab < (form == ScreenForm::Phone ? kPhoneTabs : 1); ++tab) {
            LayoutContent c;
            c.shape = core::Shape4{8, 6, 4, 4};
            c.pictures = bits & 1;
            c.lessons = bits & 2;
            c.compare = bits & 4;
            c.pair = bits & 8;
            c.gradient = bits & 16;
            c.cube = bits & 32;
            c.sync = bits & 64;
            c.tab = static_cast<PhoneTab>(tab);
            const PanelRects r = layout_for(m, c);
            const std::string what = std::to_string(int(w)) + "x" + std::to_string(int(h)) + " content " +
                                     std::to_string(bits) + " tab " + std::to_string(tab);
            INFO(what);
            CHECK(r.form == form);
            check_tiles(r, m, what);
            const float css = px / 17.0f;  // canvas pixels per CSS pixel
            if (form == ScreenForm::Tablet) {
                REQUIRE(r.heatmap.has_value());
                CHECK(r.heatmap->w == m.width);  // across the top
                CHECK(r.controls.has_value());
                CHECK(r.stats.has_value());
                CHECK(r.lesson.has_value() == c.lessons);
                CHECK(r.heatmap->h >= 250 * css);
            } else {
                REQUIRE(r.tabs.has_value());
                CHECK(r.tabs->h >= 2 * touch_target_height(m));  // two rows of tabs a finger hits
                const bool heatmap_tab = c.tab == PhoneTab::Heatmap || (c.tab == PhoneTab::Lesson && !c.lessons);
                if (w > h) {  // landscape: the heatmap on the left on every tab, the tabs on the right
                    REQUIRE(r.heatmap.has_value());
                    CHECK((r.heatmap->x == 0 && r.heatmap->w >= m.width * 0.4f));
                    CHECK(r.heatmap->h == m.height - m.status_h - m.top);
                    CHECK(r.tabs->x >= r.heatmap->w);
                    CHECK(r.tabs->x + r.tabs->w == m.width);
                    CHECK(r.tabs->w / kPhoneTabsPerRow >= 100 * css);  // a tab's label fits
                    if (heatmap_tab) CHECK((c.lessons ? r.lesson : r.explain).has_value());
                    const bool pictures_tab = c.tab == PhoneTab::Histograms && c.pictures;
                    CHECK(panels(r).size() <= (pictures_tab ? 5u : 4u));  // the heatmap and one tab's panel
                    continue;
                }
                CHECK(r.heatmap.has_value() == heatmap_tab);
                if (heatmap_tab) {  // the heatmap first: the whole width, at least 150 CSS px high
                    CHECK(r.heatmap->w == m.width);
                    CHECK(r.heatmap->h >= 150 * css);
                    CHECK((c.lessons ? r.lesson : r.explain).has_value());
                }
                CHECK(panels(r).size() <= 4);  // one panel (or the heatmap and one under it) and the bars
            }
        }
}

}  // namespace

TEST_CASE("phones (both ways) and portrait tablets get their own layouts; landscape tablets and laptops the normal one",
          "[layout]") {
    for (float px : {17.0f, 34.0f, 51.0f}) {  // devicePixelRatio 1, 2, 3
        const float s = px / 17.0f;
        check_touch_screens(390 * s, 844 * s, px, ScreenForm::Phone);
        check_touch_screens(360 * s, 640 * s, px, ScreenForm::Phone);
        check_touch_screens(820 * s, 1180 * s, px, ScreenForm::Tablet);
        check_touch_screens(768 * s, 1024 * s, px, ScreenForm::Tablet);
        CHECK(screen_form(metrics(1180 * s, 820 * s, px)) == ScreenForm::Wide);  // a landscape tablet
        check_touch_screens(844 * s, 390 * s, px, ScreenForm::Phone);            // phones in landscape
        check_touch_screens(640 * s, 360 * s, px, ScreenForm::Phone);
        check_touch_screens(932 * s, 430 * s, px, ScreenForm::Phone);
        CHECK(screen_form(metrics(1280 * s, 450 * s, px)) == ScreenForm::Wide);  // a laptop's low window
        CHECK(screen_form(metrics(1024 * s, 600 * s, px)) == ScreenForm::Wide);
        CHECK(screen_form(metrics(1280 * s, 720 * s, 2 * px), true) == ScreenForm::Wide);  // presenter mode
        CHECK(screen_form(metrics(1280 * s, 720 * s, 2 * px)) == ScreenForm::Phone);  // the same text, no presenter
        CHECK(screen_form(metrics(1280 * s, 720 * s, px)) == ScreenForm::Wide);
    }
    CHECK(screen_form(metrics(1080, 1920, 17)) == ScreenForm::Tablet);  // a portrait monitor: the tablet layout
}

TEST_CASE("the Train view takes the whole body on wide screens and tablets, and a phone's Train tab", "[layout]") {
    for (auto [w, h] : {std::pair{1600.0f, 900.0f}, std::pair{820.0f, 1180.0f}, std::pair{390.0f, 844.0f},
                        std::pair{844.0f, 390.0f}}) {
        const LayoutMetrics m = metrics(w, h, 17);
        LayoutContent c;
        c.shape = core::Shape4{8, 6, 4, 4};
        c.train = true;
        c.tab = PhoneTab::Train;
        const PanelRects r = layout_for(m, c);
        INFO(w << "x" << h);
        REQUIRE(r.train.has_value());
        check_tiles(r, m, "train");
        if (r.form == ScreenForm::Phone) {
            REQUIRE(r.tabs.has_value());  // the tabs stay, to leave the view
            continue;
        }
        CHECK(panels(r).size() == 2u);  // the view and the status bar
        CHECK(r.train->w == m.width);
        CHECK(r.train->y == m.top);
        CHECK(r.train->h == m.height - m.status_h - m.top);
    }
}
