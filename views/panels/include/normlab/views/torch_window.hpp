// The "Copy as PyTorch" window, for the desktop and the browser alike: the PyTorch code of the shown
// state (normlab/classroom/torch_code.hpp), put on the clipboard when the window opens and again by its button.
#pragma once
#include "normlab/session/session.hpp"

#include <string>

namespace normlab::views {

// The PyTorch code of the session's state, put on the clipboard (File > Copy as PyTorch, key T).
std::string copy_torch_code(const session::Session& s);

// While `open` (its close box clears it): the code and a "Copy again" button.
void torch_window(const std::string& code, bool& open);

}  // namespace normlab::views
