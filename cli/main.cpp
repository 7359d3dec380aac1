// normlab-cli: runs one normalization headless on the Vulkan device (or, with --backend cpu, on
// engine/cpu's CPU backend) and writes y, the statistics and the group map; with --grad-output, the
// backward pass and the gradients. `normlab-cli train …` trains a small network (train_command.hpp).
// Exit status (normlab/core/error.hpp): 0 ok, 2 invalid input, 3 no usable Vulkan device or a device fault, 4
// validation-layer messages (NORMLAB_VALIDATION=1).
#include "assets_dir.hpp"
#include "state_options.hpp"
#include "train_command.hpp"

#include "normlab/plan/backend_helpers.hpp"
#include "normlab/plan/adain.hpp"
#include "normlab/io/atomic_file.hpp"
#include "normlab/ops/backward.hpp"
#include "normlab/core/error.hpp"
#include "normlab/io/image_file.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/io/stats_json.hpp"
#include "normlab/cpu/cpu_backend.hpp"
#include "normlab/ops/sync_bn.hpp"

#include <fmt/core.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

#ifdef NORMLAB_HAVE_FIGURE
#include "normlab/views/figure.hpp"
#include "normlab/views/png_file.hpp"
#include "normlab/session/session.hpp"
#include "normlab/ops/vulkan_backend.hpp"
#include "normlab/reference/grad_reference.hpp"
#endif

using namespace normlab;

namespace {

struct FigureArgs {
    std::string path, size = "1400x900", heatmap, lang = "en", colormap = "diverging";
    bool large = false;
};

struct GradArgs {
    std::string output, input, weight, bias;  // --grad-output (dy, read), --grad-input/-weight/-bias (written)
};

struct CliOptions {
    StateOptions state;
    std::string output, stats, group_map, device, output_image, backend = "vulkan";
    GradArgs grad;
    bool list_devices = false, list_presets = false, no_reference = false, quiet = false;
    FigureArgs figure;
};

void add_figure_options([[maybe_unused]] CLI::App& app, [[maybe_unused]] FigureArgs& f) {
#ifdef NORMLAB_HAVE_FIGURE
    app.add_option("--figure", f.path,
                   "render the heatmap (selected group highlighted) and histograms to a PNG, headless");
    app.add_option("--figure-size", f.size, "figure size WxH in pixels (default 1400x900)");
    app.add_option("--figure-heatmap", f.heatmap, "input | output | diff | stats (default: stats)")
        ->check(CLI::IsMember({"input", "output", "diff", "stats"}));
    app.add_option("--figure-colormap", f.colormap, "diverging | viridis | cividis")
        ->check(CLI::IsMember({"diverging", "viridis", "cividis"}));
    app.add_option("--figure-lang", f.lang, "en | zh")->check(CLI::IsMember({"en", "zh"}));
    app.add_flag("--figure-large", f.large, "large text (the app's presenter font) for slides");
#endif
}

void add_image_output([[maybe_unused]] CLI::App& app, [[maybe_unused]] std::string& path) {
#ifdef NORMLAB_HAVE_FIGURE
    app.add_option("--output-image", path,
                   "write y (1×C×H×W, C = 1 or 3) as an 8-bit PNG: clamp(0.5 + y/6) (±3σ), or clamp(y) with "
                   "--style-image");
#endif
}

void add_cli_options(CLI::App& app, CliOptions& o) {
    add_state_options(app, o.state, false);
    add_figure_options(app, o.figure);
    add_image_output(app, o.output_image);
    app.add_option("--output", o.output, "write y as a float32 .npy of the input's shape");
    app.add_option("--stats", o.stats, "write the statistics as JSON");
    app.add_option("--group-map", o.group_map, "write each element's statistic index as an int32 .npy");
    app.add_option("--device", o.device, "Vulkan device index or name substring (also NORMLAB_DEVICE)");
    app.add_option("--backend", o.backend,
                   "vulkan (the default), or cpu: engine/cpu's float32 CPU backend, no Vulkan device, tensors of "
                   "at most 4194304 elements, no --figure")
        ->check(CLI::IsMember({"vulkan", "cpu"}));
    app.add_flag("--list-devices", o.list_devices, "list Vulkan devices and why each is (not) usable");
    app.add_flag("--list-presets", o.list_presets, "list the built-in presets");
    app.add_flag("--no-reference", o.no_reference, "skip the float64 CPU reference check");
    app.add_flag("-q,--quiet", o.quiet, "print nothing on success");
    app.add_option("--grad-output", o.grad.output,
                   "dL/dy as a float32/float64 .npy of the input's shape: runs the backward pass of L = sum(dy*y)");
    app.add_option("--grad-input", o.grad.input, "write dL/dx as a float32 .npy of the input's shape");
    app.add_option("--grad-weight", o.grad.weight, "write dL/dweight (float32, the weight's shape)");
    app.add_option("--grad-bias", o.grad.bias, "write dL/dbias (float32, the bias's shape)");
}

int list_presets() {
    for (const auto& p : io::presets())
        fmt::print("{:<22} {:<16} {}\n  {}\n", p.name, p.x.shape.str(), p.source, p.description);
    return 0;
}

int list_devices(const gpu::ContextOptions& copt) {
    auto devs = gpu::VulkanContext::list_devices(copt);
    if (devs.empty())
        throw core::DeviceError("the Vulkan loader found no device; install mesa-vulkan-drivers for lavapipe");
    for (const auto& d : devs)
        fmt::print("{}: {} ({}, Vulkan {}){}\n", d.index, d.name, d.type, d.api_version,
                   d.usable ? "" : " - not usable: " + d.reason);
    return 0;
}

// Checked before any work (with the figure's options and the output folders): a missing
// method or input, a bad figure option or an unwritable folder changes nothing.
void check_request(const StateOptions& so) {
    if (so.norm.empty() && so.scene.empty())
        throw core::InputError("--norm is required (" + core::method_names() + ")");
    if (so.input.empty() && so.shape.empty() && so.preset.empty() && so.scene.empty() && so.image.empty())
        throw core::InputError("give an input: --input X.npy, --image FILE.png, --shape N,C,H,W or --preset NAME");
}

void check_writable(const CliOptions& o) {
    for (const std::string* path : {&o.output, &o.stats, &o.group_map, &o.figure.path, &o.grad.input, &o.grad.weight,
                                    &o.grad.bias, &o.output_image}) {
        if (path->empty()) continue;
        std::string dir = std::filesystem::path(*path).parent_path().string();
        if (dir.empty()) dir = ".";
        if (::access(dir.c_str(), W_OK) != 0)
            throw core::InputError("cannot write " + *path + ": the folder " + dir + " is missing or not writable");
    }
}

#ifdef NORMLAB_HAVE_FIGURE
views::FigureOptions figure_options(const FigureArgs& f) {
    views::FigureOptions fo;
    if (std::sscanf(f.size.c_str(), "%dx%d", &fo.width, &fo.height) != 2 || !views::figure_size_ok(fo.width, fo.height))
        throw core::InputError(std::string("--figure-size must look like 1400x900 (") + views::kFigureSizeRule +
                               "), got '" + f.size + "'");
    fo.heatmap = f.heatmap.empty() ? "stats" : f.heatmap;
    fo.colormap = f.colormap;
    fo.large_text = f.large;
    fo.language = f.lang == "zh" ? core::Language::Zh : core::Language::En;
    return fo;
}
#endif

// The backward pass's request: --grad-input/-weight/-bias need --grad-output, and a weight or
// bias the configuration has; dy must have the input's shape. Checked before any GPU work.
std::optional<core::Tensor> load_grad_output(const GradArgs& g, const core::NormSpec& spec, const core::Shape4& input) {
    for (const auto& [path, flag] : {std::pair{&g.input, "--grad-input"}, std::pair{&g.weight, "--grad-weight"},
                                     std::pair{&g.bias, "--grad-bias"}})
        if (!path->empty() && g.output.empty())
            throw core::InputError(std::string(flag) +
                                   " needs --grad-output DY.npy (the gradient of the loss with "
                                   "respect to the output)");
    if (!g.weight.empty() && !spec.has_weight())
        throw core::InputError("--grad-weight: " + std::string(core::method_torch_name(spec.method)) +
                               " without affine parameters has no weight");
    if (!g.bias.empty() && !spec.has_bias())
        throw core::InputError("--grad-bias: this " + std::string(core::method_torch_name(spec.method)) +
                               " has no bias");
    if (g.output.empty()) return std::nullopt;
    if (spec.sync_devices > 0)
        throw core::InputError("--grad-output: the backward pass of SyncBN (--sync-devices) is not implemented");
    io::NpyArray a = io::read_npy(g.output);
    core::check_grad_shape(input, a.shape);
    core::Tensor dy;
    dy.shape = input;
    dy.data = std::move(a.data);
    return dy;
}

// stats JSON with the backward's keys added.
std::string with_grad_keys(const std::string& stats, const core::GradResult& g, std::optional<double> err) {
    auto j = nlohmann::json::parse(stats);
    j["grad_gpu_ms"] = g.gpu_ms;
    j["grad_max_abs_error_vs_reference"] = err && std::isfinite(*err) ? nlohmann::json(*err) : nlohmann::json(nullptr);
    return j.dump(2) + "\n";
}

// stats JSON with AdaIN's style statistics added (mean/var stay those of x).
std::string with_style_keys(const std::string& stats, const plan::StyleStats& s) {
    auto j = nlohmann::json::parse(stats);
    j["style_mean"] = s.mean;
    j["style_std"] = s.stdev;
    return j.dump(2) + "\n";
}

// Every output serialized first (path, bytes), then each written atomically.
std::vector<std::pair<std::string, std::string>> serialize_outputs(const CliOptions& o, const core::NormSpec& spec,
                                                                   const core::NormResult& r, const std::string& device,
                                                                   std::optional<double> err,
                                                                   const std::optional<plan::StyleStats>& style) {
    std::vector<std::pair<std::string, std::string>> files;
    const auto dims = r.layout.shape.dims();
    const std::vector<std::int64_t> shape(dims.begin(), dims.end());
    if (!o.output.empty()) files.emplace_back(o.output, io::npy_bytes_f32(shape, r.y.data.data()));
    if (!o.group_map.empty()) {
        auto map = r.layout.group_map();
        files.emplace_back(o.group_map, io::npy_bytes_i32(shape, map.data()));
    }
    if (!o.stats.empty())
        files.emplace_back(o.stats, style ? with_style_keys(io::stats_json(spec, r, device, err), *style)
                                          : io::stats_json(spec, r, device, err));
#ifdef NORMLAB_HAVE_FIGURE
    if (!o.output_image.empty()) {
        const auto rgba = io::tensor_to_rgba(r.y, style ? io::ImageScale::Unit : io::ImageScale::Sigma3);
        files.emplace_back(o.output_image, views::png_bytes(o.output_image, static_cast<int>(r.y.shape.w),
                                                            static_cast<int>(r.y.shape.h), rgba));
    }
#endif
    return files;
}

void serialize_grads(std::vector<std::pair<std::string, std::string>>& files, const CliOptions& o,
                     const core::StatLayout& layout, const core::GradResult& g, std::optional<double> err) {
    const auto dims = layout.shape.dims();
    const std::vector<std::int64_t> shape(dims.begin(), dims.end());
    if (!o.grad.input.empty()) files.emplace_back(o.grad.input, io::npy_bytes_f32(shape, g.dx.data.data()));
    auto as_f32 = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
    if (!o.grad.weight.empty())
        files.emplace_back(o.grad.weight, io::npy_bytes_f32(layout.param_shape, as_f32(g.dweight).data()));
    if (!o.grad.bias.empty())
        files.emplace_back(o.grad.bias, io::npy_bytes_f32(layout.param_shape, as_f32(g.dbias).data()));
    for (auto& [path, bytes] : files)
        if (path == o.stats) bytes = with_grad_keys(bytes, g, err);
}

// The summary on stdout; `cpu_ms` (the CPU backend's wall time) replaces the GPU's time where there is no GPU.
void print_summary(const core::NormSpec& spec, const core::NormResult& r, const std::string& device,
                   std::optional<double> err, std::optional<double> cpu_ms = {}) {
    const core::StatLayout& l = r.layout;
    fmt::print("{} on {} ({} statistics of {} elements, reduced over {}) on {}\n",
               core::method_torch_name(spec.method, l.shape), l.shape.str(), l.stat_count, l.count(),
               fmt::join(l.reduced_axes, ","), device);
    if (r.nonfinite_inputs) fmt::print("input holds {} non-finite values (NaN/Inf)\n", r.nonfinite_inputs);
    if (r.sync)
        fmt::print("SyncBN on {} simulated devices ({} samples each), mode {}\n", r.sync->devices,
                   l.shape.n / r.sync->devices, core::sync_mode_name(r.sync->mode));
    if (cpu_ms)
        fmt::print("cpu {:.3f} ms (wall)", *cpu_ms);
    else
        fmt::print("gpu {:.3f} ms", r.gpu_ms);
    if (err) fmt::print(", max |y - reference| = {:.3g}", *err);
    fmt::print("\n");
}

// The forward and its float64 check (none with --no-reference). With --figure, one
// normalization in the figure's Session serves the figure and every other output; the figure is
// rendered first, so a failing figure leaves every other output untouched. Else SyncBN on
// simulated devices, or the plain normalizer (SyncBatchNorm::run passes plain runs through).
struct Forward {
    core::NormResult r;
    std::optional<double> err;
};
Forward forward(const gpu::VulkanContext& ctx, ops::Normalizer& normalizer, LoadedState& ls, const CliOptions& o) {
    Forward f;
#ifdef NORMLAB_HAVE_FIGURE
    if (!o.figure.path.empty()) {
        ops::VulkanBackend backend(ctx);
        session::Session session(backend);
        session.set_reference_check(!o.no_reference);
        if (auto e = session.apply(ls.state, session::TensorChange::given(ls.x))) throw core::InputError(*e);
        views::render_figure(ctx, session, figure_options(o.figure), o.figure.path);
        if (!o.quiet) fmt::print("figure: {}\n", o.figure.path);
        f.r = session.result();
        if (!o.no_reference) f.err = session.max_error_wait();
        return f;
    }
#endif
    (void)ctx;
    ops::SyncBatchNorm sync(normalizer);
    f.r = sync.run(ls.x, ls.state.spec, ls.state.params);
    if (!o.no_reference) f.err = reference::reference_error(ls.x, ls.state.spec, ls.state.params, f.r.y.data);
    return f;
}

// The gradients' files and their float64 check added to `files`; returns the summary line (with the CPU
// backend's wall time `cpu_ms` where there is no GPU).
std::string grad_outputs(const core::GradResult& g, const LoadedState& ls, const core::Tensor& dy, const CliOptions& o,
                         const core::StatLayout& layout, std::vector<std::pair<std::string, std::string>>& files,
                         std::optional<double> cpu_ms = {}) {
    std::optional<double> err;
    if (!o.no_reference)
        err = reference::grad_max_abs_error(
            g, reference::reference_backward(reference::Reference(ls.x, ls.state.spec, ls.state.params), dy));
    serialize_grads(files, o, layout, g, err);
    std::string line = cpu_ms ? fmt::format("backward: cpu {:.3f} ms (wall)", *cpu_ms)
                              : fmt::format("backward: gpu {:.3f} ms", g.gpu_ms);
    if (err) line += fmt::format(", max |grad - reference| = {:.3g}", *err);
    return line;
}

// The backward for dy: on the normalizer's device buffers of the forward above, or (after the
// figure's Session ran the forward) a forward of its own first. Adds the gradient files and
// returns the summary line.
std::string backward(ops::Normalizer& normalizer, const LoadedState& ls, const core::Tensor& dy, const CliOptions& o,
                     const core::StatLayout& layout, std::vector<std::pair<std::string, std::string>>& files) {
    ops::Backward b(normalizer);
    const core::GradResult g =
        o.figure.path.empty() ? b.run(dy) : ops::run_backward(normalizer, b, ls.x, dy, ls.state.spec, ls.state.params);
    return grad_outputs(g, ls, dy, o, layout, files);
}

// --backend cpu: the same run on engine/cpu's CpuBackend (float32 on the CPU, no Vulkan device),
// with the same outputs and checks; no --figure (it draws on Vulkan).
int run_cpu(CliOptions& o) {
    if (!o.figure.path.empty())
        throw core::InputError("--figure draws with Vulkan: it does not run with --backend cpu");
    if (!o.device.empty()) throw core::InputError("--device names a Vulkan device: it does not run with --backend cpu");
    cpu::CpuBackend backend;
    LoadedState ls = load_state(o.state, core::State{},
                                [&](const core::Shape4& shape) { backend.normalizer().check_capacity(shape); });
    if (!o.output_image.empty()) io::check_image_shape(ls.x.shape, "--output-image");
    std::optional<plan::StyleStats> style;
    const std::string style_path = ls.state.style_image;
    if (ls.style) {  // AdaIN, as on Vulkan (run() below)
        style = plan::style_stats_of(
            backend.normalizer().run(*ls.style, plan::style_run_spec(ls.state.spec), {}, plan::kStyleRunOptions),
            ls.state.spec);
        plan::apply_style(*style, ls.state.spec, ls.state.params);
        ls.state.style_image.clear();
    }
    const std::optional<core::Tensor> dy = load_grad_output(o.grad, ls.state.spec, ls.x.shape);
    auto t = std::chrono::steady_clock::now();
    const core::NormResult r = backend.normalize(ls.x, ls.state.spec, ls.state.params, {});
    const double cpu_ms = plan::ms_since(t);
    std::optional<double> err;
    if (!o.no_reference) err = reference::reference_error(ls.x, ls.state.spec, ls.state.params, r.y.data);
    auto files = serialize_outputs(o, ls.state.spec, r, backend.device_name(), err, style);
    std::string grad_line;
    if (dy) {
        t = std::chrono::steady_clock::now();
        const core::GradResult g = backend.backward(ls.x, *dy, ls.state.spec, ls.state.params);
        grad_line = grad_outputs(g, ls, *dy, o, r.layout, files, plan::ms_since(t));
    }
    for (const auto& [path, bytes] : files) io::write_file_atomic(path, bytes);
    if (!o.quiet) print_summary(ls.state.spec, r, backend.device_name(), err, cpu_ms);
    if (!o.quiet && style)
        fmt::print("AdaIN: style {} mean {:.4f}, std {:.4f}\n", style_path, fmt::join(style->mean, ", "),
                   fmt::join(style->stdev, ", "));
    if (!o.quiet && !grad_line.empty()) fmt::print("{}\n", grad_line);
    return 0;
}

int run(int argc, char** argv) {
    CLI::App app{"normlab-cli: BatchNorm, LayerNorm, InstanceNorm, GroupNorm and RMSNorm on a Vulkan device"};
    CliOptions o;
    add_cli_options(app, o);
    if (auto help = parse_command_line(app, argc, argv)) return *help;
    if (o.list_presets) return list_presets();
    gpu::ContextOptions copt = gpu::ContextOptions::from_env();
    if (!o.device.empty()) copt.device = o.device;
    if (o.list_devices) return list_devices(copt);
    check_request(o.state);
    find_images_in_assets();
    if (!o.figure.path.empty()) copt.need_graphics = true;  // the figure is drawn with the same queue
#ifdef NORMLAB_HAVE_FIGURE
    if (!o.figure.path.empty()) figure_options(o.figure);  // its errors before the device starts
#endif
    check_writable(o);
    if (o.backend == "cpu") return run_cpu(o);

    gpu::VulkanContext ctx(copt);
    ops::Normalizer normalizer(ctx);
    LoadedState ls =
        load_state(o.state, core::State{}, [&](const core::Shape4& shape) { normalizer.check_capacity(shape); });
    if (!o.output_image.empty()) io::check_image_shape(ls.x.shape, "--output-image");
    std::optional<plan::StyleStats> style;
    const std::string style_path = ls.state.style_image;
    if (ls.style) {
        // AdaIN: the style's statistics from the shaders, then an affine InstanceNorm of x with
        // γ = σ_s, β = μ_s (the figure's session gets that state, without the style image).
        style = plan::style_stats_of(
            normalizer.run(*ls.style, plan::style_run_spec(ls.state.spec), {}, plan::kStyleRunOptions), ls.state.spec);
        plan::apply_style(*style, ls.state.spec, ls.state.params);
        ls.state.style_image.clear();
    }
    const std::optional<core::Tensor> dy = load_grad_output(o.grad, ls.state.spec, ls.x.shape);
    const Forward f = forward(ctx, normalizer, ls, o);
    auto files = serialize_outputs(o, ls.state.spec, f.r, ctx.device_name(), f.err, style);
    const std::string grad_line = dy ? backward(normalizer, ls, *dy, o, f.r.layout, files) : std::string();
    for (const auto& [path, bytes] : files) io::write_file_atomic(path, bytes);
    if (!o.quiet) print_summary(ls.state.spec, f.r, ctx.device_name(), f.err);
    if (!o.quiet && style)
        fmt::print("AdaIN: style {} mean {:.4f}, std {:.4f}\n", style_path, fmt::join(style->mean, ", "),
                   fmt::join(style->stdev, ", "));
    if (!o.quiet && !grad_line.empty()) fmt::print("{}\n", grad_line);
    return core::validation_status(ctx.validation_messages());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "train")
        return core::run_main([&] { return run_train_command(argc - 1, argv + 1); });
    return core::run_main([&] { return run(argc, argv); });
}
