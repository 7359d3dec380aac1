// Wrapped text drawn with line_break.hpp's rules (Chinese punctuation never starts or ends a
// line wrongly, Latin words break at spaces), measured with ImGui's CalcTextSize. Used for
// every paragraph the app wraps instead of ImGui's TextWrapped, which breaks CJK text anywhere.
#pragma once
#include <imgui.h>

#include <string>
#include <string_view>

namespace normlab::app {

// Text wrapped at the right edge of the current window's content region.
void wrapped_text(std::string_view text);
void wrapped_text_colored(const ImVec4& color, std::string_view text);
void wrapped_text_disabled(std::string_view text);
// Before an item `width` wide that follows another: on the same line when it fits there, else
// on the next (rows of buttons and captions that wrap instead of being cut at the window's edge).
void same_line_if_fits(float width);
// printf into a string (for the wrapped texts above).
std::string strf(const char* fmt, ...) IM_FMTARGS(1);

}  // namespace normlab::app
