// AppLink: everything a link to the app carries, so that an address (the browser's, after '#') or a
// line on the clipboard reopens what was shown: the lesson and its step, the language, presenter mode
// and the scene (the state, with its view inside: heatmap mode, colours, compare, cube and gradient
// views, the running experiment, whose settings are the state's). Both apps write and read it with
// these two functions (docs/scene-format.md, "Links"):
//   lesson=ID&step=K&lang=zh&presenter=1&normlab-scene:BASE64URL
// every part optional, a scene line (or a scene's JSON) alone being the link of a scene.
#pragma once
#include "normlab/core/local_text.hpp"

#include <optional>
#include <string>

namespace normlab::session {

struct AppLink {
    std::optional<std::string> lesson;  // a lesson's id
    std::optional<int> step;            // its step, 1-based
    std::optional<core::Language> language;
    std::optional<bool> presenter;
    std::string scene;  // a "normlab-scene:…" line or a scene's JSON text; "" none

    // `later`'s parts where it has them, this link's elsewhere (a query's link under an address's '#').
    AppLink merged(const AppLink& later) const;
    bool operator==(const AppLink&) const = default;
};

// The link as one line: its parts in the order above, those not set left out (lang and presenter
// only when they differ from English and off), the scene last.
std::string link_text(const AppLink& link);

// Reads a link; a scene line or a scene's JSON alone (the links of earlier versions) is a link
// with only a scene. An unknown key or a bad value throws InputError("<where>: ...") naming it.
// With `lenient` (an address's query, shared with other uses), unknown keys are skipped.
AppLink parse_link(const std::string& text, const std::string& where, bool lenient = false);

}  // namespace normlab::session
