// The Latin/Greek/math font compiled into every normlab binary (embedded_font.cpp).
#pragma once
#include <span>

namespace normlab::views {

// DejaVu Sans, subset to the ranges fonts.cpp loads: static data, never freed (hand it to
// ImGui with ImFontConfig::FontDataOwnedByAtlas = false).
std::span<const unsigned char> embedded_latin_font();

}  // namespace normlab::views
