// The app's exercise parts, for the desktop and the browser alike: a panel an exercise hides and the
// teacher's Exercise window, which hides and locks controls as one edit of the scene's exercise.
#pragma once
#include "normlab/core/exercise.hpp"
#include "normlab/session/session.hpp"

#include <optional>
#include <string>

namespace normlab::views {

// Whether the session's exercise hides panel `c`; when it does, says so in the current window.
bool hidden_panel(const session::Session& s, core::Control c);

// The Exercise window (while `open`; its close box clears it). `save_hint`: how this app saves or
// hands out the scene, shown under the table's explanation. Returns a refusal's line.
std::optional<std::string> exercise_window(session::Session& s, bool& open, const char* save_hint);

}  // namespace normlab::views
