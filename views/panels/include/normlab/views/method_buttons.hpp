// Presenter mode's row above the heatmap, for the desktop and the browser alike: one button per
// method (keys 1–5; hidden or greyed out as the scene's exercise says), then the heatmap's modes.
#pragma once
#include "normlab/views/heatmap_panel.hpp"

#include "normlab/session/session.hpp"

#include <optional>
#include <string>

namespace normlab::views {

// A method chosen (a button, a key): one Session::apply that keeps the tensor; its refusal (an
// exercise's lock, a shape the method refuses) as the error line.
std::optional<std::string> set_method(session::Session& s, core::Method m);

// The method buttons, the current one highlighted, then (when `modes`) the heatmap's four modes as
// radio buttons after them on their last row when it has room. Returns a refusal's line.
std::optional<std::string> presenter_row(session::Session& s, HeatmapPanel& heatmap, bool modes);

}  // namespace normlab::views
