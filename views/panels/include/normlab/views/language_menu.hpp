// The menu bar's Language menu, the desktop app's and the browser app's: English and 中文 (简体)
// with the key L beside them, Chinese disabled with the reason when no CJK font was found and none
// can be loaded. Until the font is in, the item reads "Chinese (Simplified)" (no glyph to draw 中文).
#pragma once
#include "normlab/core/local_text.hpp"

#include <optional>

namespace normlab::views {

// Draws the menu (inside the main menu bar); returns the language picked this frame, if any (the
// caller switches to it).
// `loadable`: the platform loads a CJK font when Chinese is chosen (ShellPlatform::load_cjk_font).
std::optional<core::Language> language_menu(bool loadable);

}  // namespace normlab::views
