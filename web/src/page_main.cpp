// normlab in the browser: the wasm program behind index.html. Arguments come from page.js:
//   --stats         also write the statistics JSON into the page
//   --scene TEXT    the URL's scene (the text after '#'); none: the default State
//   --cpu REASON    the browser has no WebGPU (page_common.js says why): compute on the CPU backend
// After main returns the runtime stays: page.js calls the functions of page_exports.cpp for
// every later open (a file, a scene pasted into the address bar) and download.
// (index.html?test=kernels starts the in-browser tests instead: tests/web/wasm, docs/browser.md.)
#include "page_bridge.hpp"
#include "page_exports.hpp"

#include <sys/stat.h>

#include <string>

int main(int argc, char** argv) {
    umask(022);  // emscripten starts with 0777 (docs/browser.md)
    using namespace normlab::web;
    bool stats = false;
    std::string scene;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--stats")
            stats = true;
        else if (a == "--scene" && i + 1 < argc)
            scene = argv[++i];
        else if (a == "--cpu" && i + 1 < argc)
            set_no_webgpu(argv[++i]);
    }
    set_show_stats(stats);
    show_status("starting normlab…");
    reported([&] { page_session().open_scene(scene, "the scene in the URL"); }, true);
    return 0;
}
