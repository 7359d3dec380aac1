// normlab-app: the program behind app.html, normlab's panels in the browser (web_app.hpp) on the
// ImGui shell (web_window.hpp). Arguments come from
// app_page.js:
//   --link TEXT     the address's link (the text after '#'); none: the default State
//   --query TEXT    the address's query (the text after '?': lesson=ID&step=K&lang=zh…), under the link
//   --cpu REASON    the browser has no WebGPU (page_common.js says why): compute on the CPU backend
// main opens the window, the backend (page_backend.hpp: WebGPU, or the CPU) and the first result, starts the frame loop
// and returns; the runtime stays, and app_page.js calls normlab_app_open_link for a link pasted into the address bar,
// normlab_app_cjk_font once the CJK font it fetched is in the file system, normlab_app_open_file for a file picked or
// dropped and normlab_app_paste for text pasted. An error before the first frame is one line on the page.
#include "page_backend.hpp"
#include "page_bridge.hpp"
#include "web_app.hpp"
#include "web_window.hpp"

#include "normlab/views/i18n.hpp"

#include "normlab/io/image_file.hpp"

#include <emscripten.h>
#include <sys/stat.h>

#include <exception>
#include <memory>
#include <string>

namespace {

using namespace normlab;

// Everything the page keeps for its lifetime (never destroyed: the frame loop outlives main),
// made in this order: the window (WebGL2, ImGui, fonts), the backend (WebGPU or the CPU), the first result.
struct Program {
    std::unique_ptr<web::WebWindow> window;
    web::PageBackend backend;
    std::unique_ptr<web::WebApp> app;
};

Program program;

}  // namespace

int main(int argc, char** argv) {
    umask(022);                                    // emscripten starts with 0777 (docs/browser.md)
    normlab::io::set_image_search_dir("/assets");  // the shipped images, embedded at /assets/images
    std::string link, query, no_webgpu;
    for (int i = 1; i + 1 < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--link") link = argv[++i];
        if (arg == "--query") query = argv[++i];
        if (arg == "--cpu") no_webgpu = argv[++i];
    }
    try {
        web::StartupTimes t;  // milliseconds since the page's navigation started, per step
        t.emplace_back("main", emscripten_get_now());
        web::show_status(no_webgpu.empty() ? "starting WebGL2 and WebGPU…" : "starting WebGL2…");
        views::LessonPanel lessons;  // the built-in lessons, embedded at /assets/lessons
        lessons.load_dir("/assets/lessons");
        program.window = std::make_unique<web::WebWindow>(
            web::WebWindowOptions{.glyph_text = views::all_chinese_text() + lessons.all_text()});
        t.emplace_back("window", emscripten_get_now());
        program.backend = web::make_page_backend(no_webgpu, [](const std::string& line) {
            web::show_error(line);
            web::mark_done("error");
        });
        t.emplace_back("device", emscripten_get_now());
        program.app = std::make_unique<web::WebApp>(*program.window, program.backend, query, link, std::move(lessons));
        t.emplace_back("result", emscripten_get_now());
        program.app->set_startup(std::move(t));
        program.window->run([] { program.app->draw(); }, program.app->shell().pacer());
    } catch (const std::exception& e) {
        web::show_error(e.what());
        web::mark_done("error");
    }
    return 0;
}

// A later link (app_page.js, on hashchange; called with ccall's async, one at a time).
extern "C" EMSCRIPTEN_KEEPALIVE void normlab_app_open_link(const char* text) {
    if (!program.app) return;
    program.app->open_link(text);
    program.window->wake();
}

// The CJK font app_page.js fetched when Chinese was asked for is in the file system (ok 1), or not.
extern "C" EMSCRIPTEN_KEEPALIVE void normlab_app_cjk_font(int ok) {
    if (!program.app) return;
    program.app->cjk_font_fetched(ok != 0);
    program.window->wake();
}

// Text pasted into the page (Ctrl+V; from_menu 0) or read from the clipboard for File > Paste scene
// (from_menu 1), from app_page.js.
extern "C" EMSCRIPTEN_KEEPALIVE void normlab_app_paste(const char* text, int from_menu) {
    if (!program.app) return;
    program.app->paste(text, from_menu != 0);
    program.window->wake();
}

// A file picked with File > Open… or dropped on the page, written by app_page.js at `path`.
extern "C" EMSCRIPTEN_KEEPALIVE void normlab_app_open_file(const char* path, const char* name) {
    if (!program.app) return;
    program.app->open_file(path, name);
    program.window->wake();
}

// An image picked as AdaIN's style (File > Open an image as AdaIN's style…, the Controls panel).
extern "C" EMSCRIPTEN_KEEPALIVE void normlab_app_open_style(const char* path, const char* name) {
    if (!program.app) return;
    program.app->open_style(path, name);
    program.window->wake();
}
