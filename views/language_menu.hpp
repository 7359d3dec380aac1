// The menu bar's Language menu, the desktop app's and the browser app's: English and 中文 (简体)
// with the key L beside them, Chinese disabled with the reason when no CJK font was found.
#pragma once
#include "normlab/core/local_text.hpp"

#include <optional>

namespace normlab::app {

// Draws the menu (inside the main menu bar); returns the language picked this frame, if any (the
// caller switches to it).
std::optional<Language> language_menu();

}  // namespace normlab::app
