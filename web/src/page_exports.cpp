#include "page_exports.hpp"

#include "page_backend.hpp"
#include "page_bridge.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"

#include <emscripten.h>

#include <exception>
#include <filesystem>
#include <new>
#include <string>

namespace normlab::web {
namespace {

bool show_stats_json = false;

void show_result() {
    const PageSession& s = page_session();
    show_summary(s.result().summary);
    if (show_stats_json) show_stats(s.result().stats_json);
    const auto line = s.link();
    show_link(line ? *line : "", line ? "" : s.why_no_link());
}

std::string no_webgpu_reason;

const PageBackend& the_backend() {
    // The backend lives as long as the page (the runtime is kept after main returns): losing the
    // WebGPU device later still shows its line.
    static const PageBackend backend = make_page_backend(no_webgpu_reason, [](const std::string& line) {
        show_error(line);
        mark_done("error");
    });
    return backend;
}

}  // namespace

void set_no_webgpu(const std::string& reason) { no_webgpu_reason = reason; }

plan::ComputeBackend& page_backend() { return *the_backend().backend; }

webgpu::WgpuBackend& page_webgpu_backend() {
    auto* w = dynamic_cast<webgpu::WgpuBackend*>(&page_backend());
    if (!w)
        throw core::DeviceError("the kernel tests need WebGPU; this page runs on the CPU (" + the_backend().cpu_reason +
                                ")");
    return *w;
}

PageSession& page_session() {
    static PageSession session(page_backend());
    return session;
}

void set_show_stats(bool on) { show_stats_json = on; }

void reported(const std::function<void()>& open, bool shows_result) {
    try {
        if (shows_result) show_status("normalizing on " + page_backend().device_name() + "…");
        open();
        if (shows_result) show_result();
        mark_done("done");
    } catch (const std::bad_alloc&) {
        show_error(
            "the page ran out of memory (a page's WebAssembly holds at most 2 GB: x, y and the "
            "float64 check of this tensor do not fit)");
        mark_done("error");
    } catch (const std::exception& e) {
        show_error(core::error_line(e));
        mark_done("error");
    } catch (...) {
        show_error("an unknown error stopped normlab");
        mark_done("error");
    }
}

}  // namespace normlab::web

using namespace normlab::web;

extern "C" {

EMSCRIPTEN_KEEPALIVE void normlab_open_file(const char* path, const char* name) {
    reported([&] { page_session().open_file(path, name); }, true);
}

EMSCRIPTEN_KEEPALIVE void normlab_open_scene(const char* text) {
    reported([&] { page_session().open_scene(text, "the scene in the URL"); }, true);
}

EMSCRIPTEN_KEEPALIVE const char* normlab_download(const char* kind) {
    static std::string name;
    name.clear();
    reported([&] {
        auto [file, bytes] = page_session().download(kind);
        std::filesystem::create_directories("/downloads");
        normlab::io::write_file_atomic("/downloads/" + file, bytes);
        name = file;
    });
    return name.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* normlab_link() {
    static std::string line;
    const auto l = page_session().link();
    line = l ? *l : "";
    if (!l) show_note(page_session().why_no_link());
    return line.c_str();
}
}
