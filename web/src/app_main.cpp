// normlab-app: the program behind app.html, the ImGui shell of normlab in the browser (the platform
// layer the app's panels will be hosted in) with its demonstration frame. Arguments come from
// app_page.js:
//   --scene TEXT    the URL's scene (the text after '#'); none: the default State
// main opens the window, the WebGPU device and the first result, starts the frame loop and
// returns; the runtime stays. An error before the first frame is one line on the page.
#include "page_bridge.hpp"
#include "shell_demo.hpp"
#include "web_window.hpp"

#include "i18n.hpp"

#include "normlab/webgpu/wgpu_context.hpp"
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <sys/stat.h>

#include <exception>
#include <memory>
#include <string>

namespace {

using namespace normlab;

// Everything the page keeps for its lifetime (never destroyed: the frame loop outlives main).
struct Shell {
    web::WebWindow window;
    webgpu::WgpuContext ctx;
    webgpu::WgpuNormalizer normalizer{ctx};
    web::ShellDemo demo;
    explicit Shell(const std::string& scene)
        : window(web::WebWindowOptions{.glyph_text = app::all_chinese_text()}), demo(window, normalizer, scene) {
        ctx.on_lost([](const std::string& line) {
            web::show_error(line);
            web::mark_done("error");
        });
    }
};

}  // namespace

int main(int argc, char** argv) {
    umask(022);  // emscripten starts with 0777 (docs: web.md)
    std::string scene;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--scene" && i + 1 < argc) scene = argv[++i];
    try {
        web::show_status("starting WebGL2 and WebGPU…");
        static Shell* shell = new Shell(scene);
        shell->window.run([] { shell->demo.draw(); });
    } catch (const std::exception& e) {
        web::show_error(e.what());
        web::mark_done("error");
    }
    return 0;
}
