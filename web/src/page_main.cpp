// normlab in the browser: the wasm program behind index.html. Arguments come from page.js:
//   --kernel-test   run the WGSL kernels against the float64 Reference (kernel_test.hpp)
//   --stats         also write the statistics JSON into the page
//   --scene TEXT    the URL's scene (the text after '#'); none: the default State
// After main returns the runtime stays: page.js calls the functions of page_exports.cpp for
// every later open (a file, a scene pasted into the address bar) and download.
#include "kernel_test.hpp"
#include "page_bridge.hpp"
#include "page_exports.hpp"

#include <sys/stat.h>

#include <string>

int main(int argc, char** argv) {
    umask(022);  // emscripten starts with 0777 (docs: web.md)
    bool kernel_test = false, stats = false;
    std::string scene;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--kernel-test")
            kernel_test = true;
        else if (a == "--stats")
            stats = true;
        else if (a == "--scene" && i + 1 < argc)
            scene = argv[++i];
    }
    using namespace normlab::web;
    set_show_stats(stats);
    show_status("starting WebGPU…");
    if (kernel_test) {
        reported([] {
            show_status("running the kernel tests on " + page_backend().device_name() + "…");
            show_kernel_report(run_kernel_tests(page_backend()));
        });
    } else {
        reported([&] { page_session().open_scene(scene, "the scene in the URL"); }, true);
    }
    return 0;
}
