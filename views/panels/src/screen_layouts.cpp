// The layouts for the screens a student holds (panel_layout.hpp): a portrait tablet and a phone in
// portrait or landscape, and the choice of layout by the screen's form.
#include "normlab/views/panel_layout.hpp"

#include "normlab/views/fonts.hpp"  // kNormalFontPx: the text a CSS pixel is measured by

#include <algorithm>
#include <cmath>

namespace normlab::views {
namespace {

constexpr float kTouchTargetPx = 40.0f;  // the least height of a control a finger hits

// The column beside the controls: the lesson (when open), the explanation, the statistics.
void side_column(PanelRects& r, Rect a, bool lessons) {
    if (lessons) {
        const float lh = std::floor(a.h * 0.5f);
        r.lesson = Rect{a.x, a.y, a.w, lh};
        a.y += lh;
        a.h -= lh;
    }
    const float explain_h = std::floor(a.h * 0.55f);
    r.explain = Rect{a.x, a.y, a.w, explain_h};
    r.stats = Rect{a.x, a.y + explain_h, a.w, a.h - explain_h};
}

}  // namespace

ScreenForm screen_form(const LayoutMetrics& m, bool presenter) {
    const float ems = m.width / std::max(1.0f, m.font_size);
    const float tall = m.height / std::max(1.0f, m.font_size);
    if (m.height <= m.width) return !presenter && tall < 28 && ems < 64 ? ScreenForm::Phone : ScreenForm::Wide;
    if (ems < 36) return ScreenForm::Phone;
    if (ems < 64) return ScreenForm::Tablet;
    return ScreenForm::Wide;
}

float touch_target_height(const LayoutMetrics& m) { return std::ceil(kTouchTargetPx * m.font_size / kNormalFontPx); }

float phone_tabs_height(const LayoutMetrics& m, bool lessons) {
    const int tabs = lessons ? kPhoneTabs : kPhoneTabs - 1;
    const int rows = (tabs + kPhoneTabsPerRow - 1) / kPhoneTabsPerRow;
    return std::ceil(rows * (std::max(m.frame_h, touch_target_height(m)) + m.item_spacing_y) + 2 * m.padding_y);
}

PanelRects layout_for(const LayoutMetrics& m, const LayoutContent& c) {
    const ScreenForm form = screen_form(m, c.presenter);
    if (c.train && form != ScreenForm::Phone) return train_layout(m, form, c.lessons);  // a phone: the Train tab
    switch (form) {
        case ScreenForm::Phone: return m.width > m.height ? phone_landscape_layout(m, c) : phone_layout(m, c);
        case ScreenForm::Tablet: return tablet_layout(m, c);
        case ScreenForm::Wide: break;
    }
    return c.presenter ? presenter_layout(m, c) : normal_layout(m, c);
}

// The heatmap across the top (with the views in its place), the pictures and histograms under it,
// then the controls beside the lesson, the explanation and the statistics.
PanelRects tablet_layout(const LayoutMetrics& m, const LayoutContent& c) {
    PanelRects r;
    r.form = ScreenForm::Tablet;
    const float top = m.top, body = m.height - m.status_h - top;
    const bool wide_views = c.compare || c.pair || c.sync || c.gradient;
    const float heat_h = std::floor(body * (c.pictures ? 0.36f : wide_views ? 0.5f : 0.44f));
    const float hist_h = histograms_height(m) + 2 * m.padding_y;  // the histograms keep their lines
    const float lower_h = std::floor(std::max(body * (c.pictures ? 0.3f : 0.17f), (c.pictures ? 2 : 1) * hist_h));
    r.heatmap = Rect{0, top, m.width, heat_h};
    lower_area(r, Rect{0, top + heat_h, m.width, lower_h}, c.pictures, false, 0);
    r.figure = Rect{0, top, m.width, heat_h + lower_h};
    const float y = top + heat_h + lower_h, rest = body - heat_h - lower_h;
    const float left = std::floor(m.width * 0.5f);
    r.controls = Rect{0, y, left, rest};
    side_column(r, Rect{left, y, m.width - left, rest}, c.lessons);
    r.status = Rect{0, top + body, m.width, m.status_h};
    return r;
}

// One panel at a time above the tabs. The heatmap's tab has the lesson (when open) or the
// explanation of the element tapped under the heatmap.
PanelRects phone_layout(const LayoutMetrics& m, const LayoutContent& c) {
    PanelRects r;
    r.form = ScreenForm::Phone;
    const float tabs_h = phone_tabs_height(m, c.lessons);
    const float top = m.top, body = m.height - m.status_h - top - tabs_h;
    const Rect all{0, top, m.width, body};
    PhoneTab tab = c.tab;
    if (tab == PhoneTab::Lesson && !c.lessons) tab = PhoneTab::Heatmap;
    switch (tab) {
        case PhoneTab::Heatmap: {
            const bool wide_views = c.compare || c.pair || c.sync || c.gradient;
            const float heat_h = std::floor(body * (wide_views ? 0.7f : 0.6f));
            r.heatmap = Rect{0, top, m.width, heat_h};
            const Rect under{0, top + heat_h, m.width, body - heat_h};
            if (c.lessons)
                r.lesson = under;
            else
                r.explain = under;
            r.figure = *r.heatmap;
            break;
        }
        case PhoneTab::Controls: r.controls = all; break;
        case PhoneTab::Histograms: lower_area(r, all, c.pictures, false, 0); break;
        case PhoneTab::Explain: r.explain = all; break;
        case PhoneTab::Stats: r.stats = all; break;
        case PhoneTab::Train: r.train = all; break;
        case PhoneTab::Lesson: r.lesson = all; break;
    }
    if (tab != PhoneTab::Heatmap) r.figure = all;
    r.tabs = Rect{0, top + body, m.width, tabs_h};
    r.status = Rect{0, top + body + tabs_h, m.width, m.status_h};
    return r;
}

// A phone held in landscape: the heatmap on the left at the body's full height, beside it the tab's
// panel above the tabs (the heatmap's tab: the lesson when open, else the explanation).
PanelRects phone_landscape_layout(const LayoutMetrics& m, const LayoutContent& c) {
    PanelRects r;
    r.form = ScreenForm::Phone;
    const float top = m.top, body = m.height - m.status_h - top;
    // The right column: 45 % of the width, at least three tabs of 6 font sizes (their labels fit).
    const float right_w = std::max(std::floor(m.width * 0.45f), std::ceil(18 * m.font_size));
    const float left = m.width - right_w;
    const float tabs_h = phone_tabs_height(m, c.lessons);
    const Rect side{left, top, right_w, body - tabs_h};
    PhoneTab tab = c.tab;
    if (tab == PhoneTab::Lesson && !c.lessons) tab = PhoneTab::Heatmap;
    r.heatmap = Rect{0, top, left, body};
    switch (tab) {
        case PhoneTab::Heatmap:
            if (c.lessons)
                r.lesson = side;
            else
                r.explain = side;
            break;
        case PhoneTab::Controls: r.controls = side; break;
        case PhoneTab::Histograms: lower_area(r, side, c.pictures, false, 0); break;
        case PhoneTab::Explain: r.explain = side; break;
        case PhoneTab::Stats: r.stats = side; break;
        case PhoneTab::Train: r.train = side; break;
        case PhoneTab::Lesson: r.lesson = side; break;
    }
    r.figure = tab == PhoneTab::Histograms ? Rect{0, top, m.width, body} : *r.heatmap;  // the PNG export's
    r.tabs = Rect{left, top + body - tabs_h, right_w, tabs_h};
    r.status = Rect{0, top + body, m.width, m.status_h};
    return r;
}

}  // namespace normlab::views
