// The partition of an N×C×H×W tensor drawn as a cube with axes N (depth), C (across) and
// H·W (down), like the figure of the Group Normalization paper (Wu & He, 2018), but of the
// real tensor: every cell is colored by the statistic its elements belong to, or, with a
// selection, the selected element's group in color and everything else grey.
// Plain ImDrawList polygons; H·W is cut into at most 6 strips of whole rows.
#pragma once
#include "normlab/views/heatmap_panel.hpp"
#include "normlab/session/session.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cstdint>
#include <optional>

struct ImVec2;

namespace normlab::views {

// Draws into the current window at the cursor, inside width × height pixels, and advances
// the cursor. `selected_stat`: the statistic to highlight (none: all groups in color).
void draw_partition_cube(const core::StatLayout& layout, std::optional<std::int64_t> selected_stat, float width,
                         float height);
// The heatmap panel in the left two thirds of the window's room and the session's cube beside it
// (key K, a lesson step's "cube"), on the desktop and in the browser.
void heatmap_beside_cube(HeatmapPanel& heatmap, session::Session& session);

}  // namespace normlab::views
