// Line breaking for mixed Chinese and Latin text with the Chinese rules (kinsoku): a line
// never starts with closing punctuation (。，、；：？！）」』…) nor ends with opening
// punctuation (（「『…). Latin words break only at spaces (a word wider than the line is cut
// by characters); CJK text breaks between characters. Pure: the caller measures text (the app
// with ImGui's CalcTextSize, the tests with a fixed-width rule); normlab/views/wrapped_text.hpp draws it.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab::views {

// The width of a piece of UTF-8 text, in the caller's units (pixels in the app).
using MeasureText = std::function<float(std::string_view)>;

// Whether a line may not start with the code point (closing punctuation, CJK and Latin).
bool no_line_start(char32_t c);
// Whether a line may not end with the code point (opening punctuation).
bool no_line_end(char32_t c);
// CJK ideographs, kana, hangul, CJK and full-width punctuation: a break is allowed around them.
bool is_cjk(char32_t c);

// Splits `text` into lines no wider than `width` where the rules allow (a line is wider only
// when one unbreakable piece is). '\n' always breaks; the spaces at a break are dropped.
// An empty text gives one empty line; the lines are views into `text`.
std::vector<std::string_view> break_lines(std::string_view text, float width, const MeasureText& measure);

}  // namespace normlab::views
