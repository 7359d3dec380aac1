// PanelLayout: where each of the app's panels goes, as a pure function of the display's size,
// the font's metrics and what is shown (no ImGui call): the normal layout (controls | heatmap
// over histograms | lesson, explain, statistics) and presenter mode (heatmap and histograms |
// lesson, explain). AppUi measures, calls one of them and places each window at its rectangle;
// tests/app/test_panel_layout.cpp checks both over display sizes and content.
#pragma once
#include "normlab/core/shape.hpp"

#include <optional>

namespace normlab::app {

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

// What is shown, and what the panels measured of themselves last frame (0: not measured yet).
struct LayoutContent {
    Shape4 shape;  // the tensor (presenter mode sizes the heatmap to its tiles)
    bool pictures = false, lessons = false, compare = false, pair = false, gradient = false, cube = false;
    bool sync = false;      // SyncBN's devices under the heatmap
    float heat_chrome = 0;  // the heatmap panel's height minus its image's room
    float sync_chrome = 0;  // SyncBN: the panel's height above its heatmap
    float sync_need = 0;    // SyncBN: the height of the devices and modes below the heatmap
};

struct PanelRects {
    std::optional<Rect> controls;  // normal layout only
    Rect heatmap;
    std::optional<Rect> pictures, histograms, lesson;
    Rect explain;
    std::optional<Rect> stats;  // normal layout only
    Rect status;
    Rect figure;                       // heatmap and histograms: the PNG export's rectangle
    bool measure_heat_chrome = false;  // the caller records heat_chrome after drawing the heatmap
};

PanelRects normal_layout(const LayoutMetrics& m, const LayoutContent& c);
PanelRects presenter_layout(const LayoutMetrics& m, const LayoutContent& c);

}  // namespace normlab::app
