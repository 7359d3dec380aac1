#include "normlab/views/panel_layout.hpp"

#include "normlab/views/tile_layout.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::views {

void lower_area(PanelRects& r, Rect a, bool pictures, bool large, float pic_h) {
    if (pictures) {
        if (pic_h <= 0) pic_h = std::floor(a.h * (large ? 0.5f : 0.55f));
        r.pictures = Rect{a.x, a.y, a.w, pic_h};
        a.y += pic_h;
        a.h -= pic_h;
    }
    r.histograms = a;
}

float histograms_height(const LayoutMetrics& m) { return m.frame_h + 6.5f * m.line_spacing_h; }

namespace {

// The heatmap panel's height in presenter mode: enough for tiles that fill the panel's width
// (the grid's aspect kept), at least half the body, and no more than leaves the histograms
// their lines. The panel's own lines (title, buttons, legend) as measured last frame.
float presenter_heatmap_height(const LayoutMetrics& m, const LayoutContent& c, float width, float body) {
    const float chrome = c.heat_chrome > 0 ? c.heat_chrome : m.font_size * 6;
    const float inner_w = width - 2 * m.padding_x;
    const TileLayout wide = TileLayout::fit(c.shape, inner_w, 1e6f);  // the cells if only the width limited them
    const float need = chrome + static_cast<float>(wide.height) + 2;
    return std::floor(std::clamp(need, body * 0.5f, std::max(body * 0.5f, body - histograms_height(m))));
}

}  // namespace

PanelRects normal_layout(const LayoutMetrics& m, const LayoutContent& c) {
    PanelRects r;
    const float top = m.top;
    const float left = std::max(330.0f, m.width * 0.21f), right = std::max(380.0f, m.width * 0.26f);
    const float mid = m.width - left - right, body = m.height - m.status_h - top;
    const float heat_h = body * (c.pictures ? 0.42f : 0.66f);
    r.controls = Rect{0, top, left, body};
    r.heatmap = Rect{left, top, mid, heat_h};
    lower_area(r, Rect{left, top + heat_h, mid, body - heat_h}, c.pictures, false, 0);
    r.figure = Rect{left, top, mid, body};
    float y = top;
    if (c.lessons) {
        const float lh = body * 0.34f;
        r.lesson = Rect{left + mid, y, right, lh};
        y += lh;
    }
    const float explain_h = (top + body - y) * 0.5f;
    r.explain = Rect{left + mid, y, right, explain_h};
    r.stats = Rect{left + mid, y + explain_h, right, top + body - y - explain_h};
    r.status = Rect{0, top + body, m.width, m.status_h};
    return r;
}

PanelRects presenter_layout(const LayoutMetrics& m, const LayoutContent& c) {
    PanelRects r;
    const float top = m.top, body = m.height - m.status_h - top;
    const float main_w = std::floor(m.width * 0.64f), side = m.width - main_w;
    // The compare and pair views and the SyncBN devices below the heatmap need most of the height.
    const bool sync_view = c.sync && !c.gradient && !c.cube && !c.compare;
    const bool wide_views = c.compare || c.pair || sync_view;
    // The compare view needs the whole height on a projector; the histograms stay in the pair view.
    // SyncBN: the histograms keep the room their captions and numbers need, the devices the rest.
    const float histograms_h = histograms_height(m);
    float heat_h = c.compare    ? body
                   : c.pictures ? std::floor(body * 0.38f)
                   : sync_view  ? std::floor(std::max(body * 0.6f, body - histograms_h))
                                : std::floor(body * (wide_views ? 0.70f : 0.64f));
    // SyncBN on a small projector (1280×720): when the devices and a heatmap five lines high do
    // not fit above the histograms, they take the histograms' place instead of scrolling.
    if (sync_view && c.sync_need > 0 && heat_h - c.sync_chrome - c.sync_need < 5 * m.line_spacing_h) heat_h = body;
    const bool plain = !wide_views && !c.gradient && !c.cube && !c.pictures;  // the heatmap alone
    if (plain) heat_h = presenter_heatmap_height(m, c, main_w, body);
    // With pictures: the histograms keep their lines, and the heatmap's tiles and the pictures
    // share the rest equally (each panel's own lines aside).
    const bool pictures = c.pictures && !wide_views && !c.gradient && !c.cube;
    float pic_h = 0;
    if (pictures) {
        const float chrome = c.heat_chrome > 0 ? c.heat_chrome : m.font_size * 6;
        const float pic_chrome = m.frame_h + 2 * m.padding_y + m.line_spacing_h + m.item_spacing_y;
        const float each = std::floor(std::max(2 * m.text_line_h, (body - histograms_h - chrome - pic_chrome) / 2));
        heat_h = std::min(body, chrome + each);
        pic_h = std::min(body - heat_h, pic_chrome + each);  // a tiny window: the histograms go first
    }
    r.heatmap = Rect{0, top, main_w, heat_h};
    r.measure_heat_chrome = plain || pictures;
    if (heat_h < body) lower_area(r, Rect{0, top + heat_h, main_w, body - heat_h}, c.pictures, true, pic_h);
    r.figure = Rect{0, top, main_w, body};
    float y = top;
    if (c.lessons) {
        const float lh = std::floor(body * 0.5f);
        r.lesson = Rect{main_w, y, side, lh};
        y += lh;
    }
    r.explain = Rect{main_w, y, side, top + body - y};
    r.status = Rect{0, top + body, m.width, m.status_h};
    return r;
}

PanelRects train_layout(const LayoutMetrics& m, ScreenForm form, bool lessons) {
    PanelRects r;
    r.form = form;
    const float top = m.top, body = m.height - m.status_h - top;
    // A lesson open: its step beside the runs it speaks of.
    const float main_w = lessons ? std::floor(m.width * 0.68f) : m.width;
    r.train = Rect{0, top, main_w, body};
    if (lessons) r.lesson = Rect{main_w, top, m.width - main_w, body};
    r.figure = *r.train;
    r.status = Rect{0, top + body, m.width, m.status_h};
    return r;
}

}  // namespace normlab::views
