#include "scene_page.hpp"

#include "normlab/error.hpp"
#include "normlab/reference.hpp"
#include "normlab/state.hpp"
#include "normlab/stats_json.hpp"

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

void check_page_memory(const Shape4& shape) {
    const std::uint64_t need = static_cast<std::uint64_t>(shape.numel()) * kPageBytesPerElement;
    if (need > kPageMemoryBytes)
        throw InputError("the tensor " + shape.str() + " needs about " + std::to_string(need >> 20) +
                         " MB of the page's memory (x, y, its readback and the float64 check), more than a " +
                         "page's WebAssembly holds (" + std::to_string(kPageMemoryBytes >> 20) + " MB)");
}

std::string format_g(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

}  // namespace

void check_page_scene(const State& state, const std::string& name) {
    if (state.source.kind == TensorSource::Kind::File || state.source.kind == TensorSource::Kind::Image)
        throw InputError(name + " reads the file '" + state.source.path +
                         "', which a scene cannot bring into the browser: open the file itself (Open… or drop it "
                         "on the page)");
    if (!state.style_image.empty())
        throw InputError(name + " uses a style image (AdaIN), which the browser edition has not yet");
}

PageResult run_state(webgpu::WgpuNormalizer& normalizer, const State& state) {
    // A generated tensor's shape is checked before gigabytes are made.
    if (state.source.kind == TensorSource::Kind::Generated) {
        normalizer.check_capacity(state.source.shape);
        check_page_memory(state.source.shape);
    }
    const Tensor x = load_tensor(state.source, state.spec.method);
    normalizer.check_capacity(x.shape);
    check_page_memory(x.shape);
    validate_selection(state.selection, x.shape);

    const NormResult r = normalizer.run(x, state.spec, state.params);
    const double err = Reference(x, state.spec, state.params).max_abs_error(r.y.data);
    const std::string& device = normalizer.context().device_name();

    const StatLayout& l = r.layout;
    PageResult out;
    out.summary = std::string(method_torch_name(state.spec.method, l.shape)) + " on " + l.shape.str() + " (" +
                  std::to_string(l.stat_count) + " statistics of " + std::to_string(l.count()) +
                  " elements, reduced over " + join(l.reduced_axes, ",") + ")\n";
    if (state.source.kind == TensorSource::Kind::File || state.source.kind == TensorSource::Kind::Image)
        out.summary += "tensor: the file " + std::filesystem::path(state.source.path).filename().string() + "\n";
    out.summary += "device: " + device + "\n";
    if (r.nonfinite_inputs) out.summary += "input holds " + std::to_string(r.nonfinite_inputs) + " non-finite values\n";
    out.summary += "max |y - float64 reference| = " + format_g(err) + "\n";
    out.summary += "wall time: upload " + format_g(r.upload_ms) + " ms, kernels and readback " +
                   format_g(r.dispatch_ms) + " ms (a first run compiles its kernels)\n";
    out.stats_json = stats_json(state.spec, r, device, err);
    out.y = r.y;
    out.layout = r.layout;
    out.max_error = err;
    return out;
}

}  // namespace normlab::web
