// onnxruntime-web's steps through the bench page (ort_steps.hpp).
#include "ort_steps.hpp"

#include "normlab/core/error.hpp"

#include <emscripten.h>

#include <cstdlib>

namespace normlab::webbench {

namespace {

// clang-format off
EM_JS(void, js_ort_start, (const char* step, const char* arg, const char* name), {
    Module.normlabOrtStart(UTF8ToString(step), UTF8ToString(arg), UTF8ToString(name));
});
EM_JS(int, js_ort_busy, (), { return Module.normlabOrtBusy(); });
EM_JS(char*, js_ort_error, (), { return allocateUTF8(Module.normlabOrtError()); });
// clang-format on

}  // namespace

void ort_step(const webgpu::WgpuContext& ctx, const char* step, const std::string& arg, const std::string& name) {
    js_ort_start(step, arg.c_str(), name.c_str());
    ctx.wait([] { return js_ort_busy() == 0; }, "onnxruntime-web's step");  // the page wakes it
    char* error = js_ort_error();
    const std::string line = error ? error : "";
    std::free(error);
    if (!line.empty()) throw core::DeviceError(line);
}

}  // namespace normlab::webbench
