// The results page's view of the app's model: what a page cannot open (scenes reading files,
// AdaIN, tensors larger than its memory) and the shown result of a Session on the WebGPU backend
// — a short summary and the statistics JSON of normlab-cli --stats (engine/io's stats_json).
#pragma once
#include "normlab/session/session.hpp"
#include "normlab/core/state.hpp"

#include <string>

namespace normlab::web {

struct PageResult {
    std::string summary;     // a few lines: method, shape, adapter, max error
    std::string stats_json;  // stats_json(...) with device = the WebGPU adapter
};

// Throws InputError for what the browser edition cannot open: a scene (`name` says where it
// came from) whose tensor or AdaIN style image is a file path, not one of the images the site
// carries (the app page's "images/NAME.png"; the results page has none).
void check_page_scene(const core::State& state, const std::string& name);
// Throws InputError when a tensor of this shape does not fit the page's WebAssembly memory.
void check_page_memory(const core::Shape4& shape);
// The summary and statistics of what `session` shows (after a successful open).
PageResult page_result(const session::Session& session);

}  // namespace normlab::web
