// Inspect layer (train_inspect.hpp): a run's layer read back, written as .npy and opened as the tensor.
#include "normlab/views/train_inspect.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/atomic_file.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/session/state_edits.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace normlab::views {
namespace {

std::optional<core::Method> method_of(train::TrainNorm n) {
    switch (n) {
        case train::TrainNorm::Batch: return core::Method::Batch;
        case train::TrainNorm::Layer: return core::Method::Layer;
        case train::TrainNorm::Instance: return core::Method::Instance;
        case train::TrainNorm::Group: return core::Method::Group;
        case train::TrainNorm::Rms: return core::Method::Rms;
        case train::TrainNorm::None: break;
    }
    return std::nullopt;
}

// Whether `name` is one of inspect_file's: "train-run<R>-…-layer<L>-step<S>.npy".
bool is_inspect_file(const std::string& name) {
    return name.rfind("train-run", 0) == 0 && name.find("-layer") != std::string::npos &&
           name.find("-step") != std::string::npos && name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0;
}

}  // namespace

core::State inspect_state(const core::State& current, const train::TrainConfig& c, const train::TrainLayerRead& layer,
                          const std::string& path) {
    const std::int64_t channels = layer.dims.at(1);
    core::State next = session::with_source_file(current, path);
    next.selection.reset();
    const std::optional<core::Method> m = method_of(c.norm);
    // A new method's defaults; the same method's γ, β and running statistics back to theirs too.
    next = session::with_running_reset(
        session::with_params(session::with_method(next, m.value_or(current.spec.method), channels), {}, {}));
    if (!m) return next;
    next.spec = core::default_spec(*m);  // PyTorch's module as engine/train plans it: eps 1e-5 (rms: ε of float32)
    next.spec.affine = true;             // engine/train's InstanceNorm2d scales per channel, as the others
    if (*m == core::Method::Group) next.spec.groups = c.groups;
    next.params.weight = layer.weight;
    next.params.bias = next.spec.has_bias() ? layer.bias : std::vector<float>{};
    next.params.running_mean = layer.running_mean;
    next.params.running_var = layer.running_var;
    if (*m == core::Method::Batch) next.params.num_batches_tracked = layer.step;
    return next;
}

std::string inspect_file(const std::string& dir, int run, const train::TrainConfig& c,
                         const train::TrainLayerRead& layer) {
    return (std::filesystem::path(dir) /
            ("train-run" + std::to_string(run + 1) + "-" + train::train_norm_name(c.norm) + "-layer" +
             std::to_string(layer.layer + 1) + "-step" + std::to_string(layer.step) + ".npy"))
        .string();
}

void prune_inspect_files(const std::string& dir, const std::string& keep, int kept) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec) || !is_inspect_file(it->path().filename().string())) continue;
        if (fs::equivalent(it->path(), keep, ec)) continue;
        files.emplace_back(it->last_write_time(ec), it->path());
    }
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    const std::size_t others = static_cast<std::size_t>(std::max(0, kept - 1));  // `keep` is one of those kept
    for (std::size_t i = others; i < files.size(); ++i) fs::remove(files[i].second, ec);
}

std::optional<std::string> inspect_train_layer(session::Session& session, TrainRunSet& runs, int run, int layer,
                                               const std::string& dir) {
    if (run < 0 || run >= static_cast<int>(runs.runs().size())) return std::string("no such run");
    const TrainRun& r = runs.runs()[static_cast<std::size_t>(run)];
    if (!r.device) return std::string("the run has no device");
    try {
        std::filesystem::path folder = dir;
        if (folder.empty()) folder = std::filesystem::temp_directory_path() / "normlab-train";
        std::filesystem::create_directories(folder);
        const train::TrainLayerRead read = train::read_train_layer(*r.device, r.config, layer);
        const std::string path = inspect_file(folder.string(), run, r.config, read);
        io::write_file_atomic(path, io::npy_bytes_f32(read.dims, read.x.data()));
        prune_inspect_files(folder.string(), path);
        return session.apply(inspect_state(session.state(), r.config, read, path),
                             session::TensorChange::from_source());
    } catch (const std::exception& e) {
        return core::error_line(e);
    }
}

}  // namespace normlab::views
