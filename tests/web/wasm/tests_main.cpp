// The in-browser tests' program (tests.js, tests.wasm), started by index.html?test=kernels: the
// WGSL kernels, the histogram, the heatmap fill, SyncBN and the Session on the page's WebGPU
// backend against the float64 references (kernel_test.hpp); by index.html?test=train (arguments
// "train MODE"): training on WebGPU (train_test.hpp). The report goes into the page
// (#normlab-kernel-test), which tests/web/web_test.mjs and train_test.mjs read. No shipped page links it.
#include "kernel_test.hpp"
#include "page_bridge.hpp"
#include "page_exports.hpp"
#include "train_test.hpp"

#include <sys/stat.h>

#include <string>

int main(int argc, char** argv) {
    umask(022);  // emscripten starts with 0777 (docs/browser.md)
    using namespace normlab::web;
    const std::string mode = argc > 2 && std::string(argv[1]) == "train" ? argv[2] : "";
    show_status("starting WebGPU…");
    reported([mode] {
        if (!mode.empty()) {
            show_status("running the training tests on " + page_backend().device_name() + "…");
            show_kernel_report(run_train_tests(page_webgpu_backend().context(), mode));
            return;
        }
        show_status("running the kernel tests on " + page_backend().device_name() + "…");
        show_kernel_report(run_kernel_tests(page_webgpu_backend()));
    });
    return 0;
}
