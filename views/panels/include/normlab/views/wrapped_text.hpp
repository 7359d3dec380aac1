// Wrapped text drawn with line_break.hpp's rules (Chinese punctuation never starts or ends a
// line wrongly, Latin words break at spaces), measured with ImGui's CalcTextSize. Used for
// every paragraph the app wraps instead of ImGui's TextWrapped, which breaks CJK text anywhere; and
// labels elided to a width (menus and the status bar on a phone).
#pragma once
#include <imgui.h>

#include <string>
#include <string_view>

namespace normlab::views {

// Text wrapped at the right edge of the current window's content region.
void wrapped_text(std::string_view text);
void wrapped_text_colored(const ImVec4& color, std::string_view text);
void wrapped_text_disabled(std::string_view text);
// Before an item `width` wide that follows another: on the same line when it fits there, else
// on the next (rows of buttons and captions that wrap instead of being cut at the window's edge).
void same_line_if_fits(float width);
// `text` cut to `width` with "…" at its end (at a character's boundary), or whole when it fits.
std::string elided(std::string_view text, float width);
// A menu item whose label (shown before `id`, ImGui's "##" part) is elided to the screen's width, with
// the whole label in a tooltip then (a phone's long lesson and experiment titles); true when chosen.
bool menu_item_fitting(const std::string& label, const std::string& id, bool selected);
// A tooltip with the whole of an elided text, wrapped to the screen's width.
void elided_tooltip(std::string_view text);
// printf into a string (for the wrapped texts above).
std::string strf(const char* fmt, ...) IM_FMTARGS(1);

}  // namespace normlab::views
