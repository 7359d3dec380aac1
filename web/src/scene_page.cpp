#include "scene_page.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/image_file.hpp"
#include "normlab/core/state.hpp"
#include "normlab/io/stats_json.hpp"
#include "normlab/cpu/cpu_backend.hpp"

#include <cstdio>
#include <filesystem>

namespace normlab::web {
namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
    return out;
}

// The page's WebAssembly memory (-sMAXIMUM_MEMORY in web/CMakeLists.txt) and what one element
// costs there: x, y, y's readback copy and the float64 check's statistic index, 4 bytes each.
constexpr std::uint64_t kPageMemoryBytes = std::uint64_t{2} << 30;
constexpr std::uint64_t kPageBytesPerElement = 16;

}  // namespace

void check_page_memory(const core::Shape4& shape) {
    const std::uint64_t need = static_cast<std::uint64_t>(shape.numel()) * kPageBytesPerElement;
    if (need > kPageMemoryBytes)
        throw core::InputError("the tensor " + shape.str() + " needs about " + std::to_string(need >> 20) +
                               " MB of the page's memory (x, y, its readback and the float64 check), more than a " +
                               "page's WebAssembly holds (" + std::to_string(kPageMemoryBytes >> 20) + " MB)");
}

namespace {

std::string format_g(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

}  // namespace

namespace {

// One of the images the site carries ("images/NAME.png", embedded where load_image looks), which a
// scene may name; any other path is a file of the author's machine.
bool site_image(const std::string& path) {
    if (io::image_search_dir().empty() || path.empty() || std::filesystem::path(path).is_absolute()) return false;
    std::error_code ec;
    return std::filesystem::is_regular_file(std::filesystem::path(io::image_search_dir()) / path, ec);
}

}  // namespace

void check_page_scene(const core::State& state, const std::string& name) {
    const bool image = state.source.kind == core::TensorSource::Kind::Image;
    if (state.source.kind == core::TensorSource::Kind::File || (image && !site_image(state.source.path)))
        throw core::InputError(name + " reads the file '" + state.source.path +
                               "', which a scene cannot bring into the browser: open the file itself (Open… or drop it "
                               "on the page)");
    if (!state.style_image.empty() && !site_image(state.style_image))
        throw core::InputError(
            name + " uses the style image '" + state.style_image +
            "' (AdaIN), which a scene cannot bring into the browser: the site's own images are " +
            (io::image_search_dir().empty() ? "in the app (app.html)" : "listed in the Controls panel"));
}

PageResult page_result(const session::Session& session) {
    const core::State& state = session.state();
    const core::NormResult& r = session.result();
    const double err = session.max_error_wait();
    const std::string& device = session.backend().device_name();

    const core::StatLayout& l = r.layout;
    PageResult out;
    out.summary = std::string(core::method_torch_name(state.spec.method, l.shape)) + " on " + l.shape.str() + " (" +
                  std::to_string(l.stat_count) + " statistics of " + std::to_string(l.count()) +
                  " elements, reduced over " + join(l.reduced_axes, ",") + ")\n";
    if (state.source.kind == core::TensorSource::Kind::File || state.source.kind == core::TensorSource::Kind::Image)
        out.summary += "tensor: the file " + std::filesystem::path(state.source.path).filename().string() + "\n";
    out.summary += "device: " + device + "\n";
    if (r.nonfinite_inputs) out.summary += "input holds " + std::to_string(r.nonfinite_inputs) + " non-finite values\n";
    out.summary += "max |y - float64 reference| = " + format_g(err) + "\n";
    const bool cpu = dynamic_cast<const cpu::CpuBackend*>(&session.backend()) != nullptr;
    out.summary +=
        "wall time: upload " + format_g(r.upload_ms) + " ms, " +
        (cpu ? "computing " + format_g(r.dispatch_ms) + " ms on the CPU\n"
             : "kernels and readback " + format_g(r.dispatch_ms) + " ms (a first run compiles its kernels)\n");
    out.stats_json = io::stats_json(state.spec, r, device, err);
    return out;
}

}  // namespace normlab::web
