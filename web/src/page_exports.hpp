// What page.js calls in the wasm program (C functions, page_exports.cpp) and what those share
// with main: the page's one backend (WebGPU, or the CPU without it: page_backend.hpp) and
// PageSession, and the report of an open — its result shown, or its one error line — with the page's state set after
// it.
#pragma once
#include "page_session.hpp"

#include "normlab/webgpu/wgpu_backend.hpp"

#include <functional>
#include <string>

namespace normlab::web {

// main's --cpu REASON (page_common.js: why there is no WebGPU), before the first page_backend().
void set_no_webgpu(const std::string& reason);
// Made on first use, and living as long as the page: WebGPU, or the CPU backend.
plan::ComputeBackend& page_backend();
// The WebGPU backend for the in-browser kernel tests: DeviceError when the page runs on the CPU.
webgpu::WgpuBackend& page_webgpu_backend();
PageSession& page_session();
void set_show_stats(bool on);  // ?stats=1: every result also writes its statistics JSON

// Runs `open` and reports it: on success (with `shows_result`) the summary, the statistics and
// the link; on an exception its one line. Either way the page's state ends "done" or "error".
void reported(const std::function<void()>& open, bool shows_result = false);

}  // namespace normlab::web

extern "C" {
// page.js: a file the page wrote at `path` (what the user named `name`), or a scene line.
void normlab_open_file(const char* path, const char* name);
void normlab_open_scene(const char* text);
// A download of the shown state ("scene", "stats", "y"): written to /downloads/NAME, returns
// NAME ("" after showing why not).
const char* normlab_download(const char* kind);
// "Copy link": the scene line for the URL, "" after showing why the state has none.
const char* normlab_link();
}
