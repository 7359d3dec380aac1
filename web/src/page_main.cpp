// normlab in the browser: the wasm program behind index.html. Arguments come from page.js:
//   --kernel-test   run the WGSL kernels against the float64 Reference (kernel_test.hpp)
//   --stats         also write the statistics JSON into the page
//   --scene TEXT    the URL's scene (the text after '#'); none: the default State
#include "kernel_test.hpp"
#include "page_bridge.hpp"
#include "scene_page.hpp"

#include "normlab/error.hpp"

#include <sys/stat.h>

#include <exception>
#include <memory>
#include <new>
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
    using namespace normlab;
    try {
        web::show_status("starting WebGPU…");
        // The device lives as long as the page (the runtime is kept after main returns): losing
        // it later still shows its line.
        static webgpu::WgpuContext ctx;
        ctx.on_lost([](const std::string& line) {
            web::show_error(line);
            web::mark_done("error");
        });
        static webgpu::WgpuNormalizer normalizer(ctx);
        if (kernel_test) {
            web::show_status("running the kernel tests on " + ctx.device_name() + "…");
            web::show_kernel_report(web::run_kernel_tests(normalizer));
        } else {
            web::show_status("normalizing on " + ctx.device_name() + "…");
            const web::PageResult r = web::run_scene(normalizer, scene);
            web::show_summary(r.summary);
            if (stats) web::show_stats(r.stats_json);
        }
        web::mark_done("done");
    } catch (const std::bad_alloc&) {
        web::show_error(
            "the page ran out of memory (a page's WebAssembly holds at most 2 GB: x, y and the "
            "float64 check of this tensor do not fit)");
        web::mark_done("error");
    } catch (const std::exception& e) {
        web::show_error(e.what());
        web::mark_done("error");
    } catch (...) {
        web::show_error("an unknown error stopped normlab");
        web::mark_done("error");
    }
    return 0;
}
