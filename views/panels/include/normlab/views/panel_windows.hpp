// The ImGui side of the panel layout (panel_layout.hpp): the metrics it needs, read from ImGui, and
// the fixed windows the panels are drawn in. Used by the desktop app (AppUi) and the browser shell.
#pragma once
#include "normlab/views/panel_layout.hpp"

#include "normlab/session/session.hpp"

#include <imgui.h>

#include <string>

namespace normlab::views {

// The display's size and the font's and style's metrics this frame, with the menu bar's height `top`.
LayoutMetrics measure_layout(float top);
// The status bar's height: one line of text, or a frame's height, whichever is taller.
float status_bar_height();
// What the heatmap window shows, as its title (its ImGui id stays "###heatmap"): the compare view,
// a pair experiment's sides (with `gradient`: their Jacobian rows), the gradient, or the heatmap.
struct HeatmapArea {
    bool compare = false, pair = false, gradient = false;
};
std::string heatmap_window_title(const session::Session& session, HeatmapArea area);
// Begins the fixed (not moved, resized or collapsed; not saved) window `name` at `r`; call ImGui::End.
void begin_panel(const std::string& name, const Rect& r, ImGuiWindowFlags extra = 0);

}  // namespace normlab::views
