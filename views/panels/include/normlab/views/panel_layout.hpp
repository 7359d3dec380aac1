// PanelLayout: where each of the app's panels goes, as a pure function of the display's size,
// the font's metrics and what is shown (no ImGui call), for each form of screen: the normal layout
// (controls | heatmap over histograms | lesson, explain, statistics) and presenter mode (heatmap and
// histograms | lesson, explain) on a laptop, a landscape tablet or a projector; a portrait tablet
// (the heatmap across the top, the histograms under it, then controls | lesson, explain,
// statistics); a phone in portrait (one panel at a time above a bar of tabs, the heatmap first,
// with the lesson or the explanation under it); the Train view in the whole body (on a phone, its tab).
// The shell measures, calls layout_for and places each
// window at its rectangle; tests/app/test_panel_layout.cpp checks them over display sizes and content.
#pragma once
#include "normlab/core/shape.hpp"

#include <optional>

namespace normlab::views {

struct Rect {
    float x = 0, y = 0, w = 0, h = 0;
};

// The sizes the layout depends on, read from ImGui by the caller.
struct LayoutMetrics {
    float width = 0, height = 0;  // the display
    float top = 0;                // below the menu bar
    float status_h = 0;           // the status bar's height
    float font_size = 0, text_line_h = 0, line_spacing_h = 0, frame_h = 0;
    float padding_x = 0, padding_y = 0, item_spacing_y = 0;  // the style's window padding, item spacing
};

// The forms of screen, from the display's size in font sizes (screen_form).
enum class ScreenForm { Wide, Tablet, Phone };
// A phone's tabs: the panel it shows.
enum class PhoneTab { Heatmap, Controls, Histograms, Explain, Stats, Train, Lesson };
inline constexpr int kPhoneTabs = 7;

// What is shown, and what the panels measured of themselves last frame (0: not measured yet).
struct LayoutContent {
    core::Shape4 shape;  // the tensor (presenter mode sizes the heatmap to its tiles)
    bool pictures = false, lessons = false, compare = false, pair = false, gradient = false, cube = false;
    bool sync = false;      // SyncBN's devices under the heatmap
    float heat_chrome = 0;  // the heatmap panel's height minus its image's room
    float sync_chrome = 0;  // SyncBN: the panel's height above its heatmap
    float sync_need = 0;    // SyncBN: the height of the devices and modes below the heatmap
    bool presenter = false;
    bool train = false;                // the Train view instead of the panels (not on a phone: its tab)
    PhoneTab tab = PhoneTab::Heatmap;  // a phone's
};

struct PanelRects {
    ScreenForm form = ScreenForm::Wide;
    std::optional<Rect> controls;  // not in presenter mode
    std::optional<Rect> heatmap;   // on a phone only on its tab
    std::optional<Rect> pictures, histograms, lesson;
    std::optional<Rect> explain;
    std::optional<Rect> stats;  // not in presenter mode
    std::optional<Rect> tabs;   // a phone's bar of tabs
    std::optional<Rect> train;  // the Train view (then no other panel but a phone's tabs)
    Rect status;
    Rect figure;                       // heatmap and histograms: the PNG export's rectangle
    bool measure_heat_chrome = false;  // the caller records heat_chrome after drawing the heatmap
};

// A screen in portrait under 36 font sizes wide (612 px at 17 px: phones) is a phone, one under 64
// (1088 px: portrait tablets) a tablet; in landscape one under 28 font sizes high and 64 wide (476 ×
// 1088 px: phones held sideways) is a phone, except in presenter mode (its large text on a laptop is
// not a phone); the rest (landscape tablets, laptops, projectors) is wide.
ScreenForm screen_form(const LayoutMetrics& m, bool presenter = false);
// The height of a control a finger hits (40 px at 17-px text), on a phone or a tablet.
float touch_target_height(const LayoutMetrics& m);

// The layout of the screen's form (presenter mode on a wide screen: presenter_layout).
PanelRects layout_for(const LayoutMetrics& m, const LayoutContent& c);
PanelRects normal_layout(const LayoutMetrics& m, const LayoutContent& c);
PanelRects presenter_layout(const LayoutMetrics& m, const LayoutContent& c);
PanelRects tablet_layout(const LayoutMetrics& m, const LayoutContent& c);
PanelRects phone_layout(const LayoutMetrics& m, const LayoutContent& c);
// A phone in landscape: the heatmap on the left, the tab's panel and the tabs on the right.
PanelRects phone_landscape_layout(const LayoutMetrics& m, const LayoutContent& c);
// The Train view over the whole body, between the menu bar and the status bar (wide screens, tablets);
// with `lessons`, the lesson panel beside it on the right.
PanelRects train_layout(const LayoutMetrics& m, ScreenForm form, bool lessons = false);
// Shared by the layouts: the pictures across the area's width (when shown) and the histograms under
// them (pic_h ≤ 0: a share of the height; `large`, presenter mode, leaves the histograms' large text
// more), and the histograms' least height (their title, captions and numbers, a plot two lines high).
void lower_area(PanelRects& r, Rect a, bool pictures, bool large, float pic_h);
float histograms_height(const LayoutMetrics& m);
// A phone's bar of tabs: its rows of kPhoneTabsPerRow tabs.
inline constexpr int kPhoneTabsPerRow = 3;
float phone_tabs_height(const LayoutMetrics& m, bool lessons);

}  // namespace normlab::views
