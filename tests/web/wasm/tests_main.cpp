// The in-browser tests' program (tests.js, tests.wasm), started by index.html?test=kernels: the
// WGSL kernels, the histogram, the heatmap fill, SyncBN and the Session on the page's WebGPU
// backend against the float64 references (kernel_test.hpp); the report goes into the page
// (#normlab-kernel-test), which tests/web/web_test.mjs reads. No shipped page links it.
#include "kernel_test.hpp"
#include "page_bridge.hpp"
#include "page_exports.hpp"

#include <sys/stat.h>

int main() {
    umask(022);  // emscripten starts with 0777 (docs/browser.md)
    using namespace normlab::web;
    show_status("starting WebGPU…");
    reported([] {
        show_status("running the kernel tests on " + page_backend().device_name() + "…");
        show_kernel_report(run_kernel_tests(page_webgpu_backend()));
    });
    return 0;
}
