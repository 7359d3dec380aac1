// normlab-cli: runs one normalization headless on the Vulkan device and writes y, the
// statistics and the group map. Exit status: 0 ok, 2 invalid input, 3 no usable Vulkan
// device or a device fault, 4 validation-layer messages (NORMLAB_VALIDATION=1).
#include "state_options.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"
#include "normlab/normalizer.hpp"
#include "normlab/npy.hpp"
#include "normlab/presets.hpp"
#include "normlab/reference.hpp"
#include "normlab/stats_json.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

#ifdef NORMLAB_HAVE_FIGURE
#include "figure.hpp"
#endif

using namespace normlab;

namespace {


int run(int argc, char** argv) {
    CLI::App app{"normlab-cli: BatchNorm, LayerNorm, InstanceNorm, GroupNorm and RMSNorm on a Vulkan device"};
    StateOptions so;
    std::string output, stats, group_map, device;
    bool list_devices = false, list_presets = false, no_reference = false, quiet = false;
    std::string figure, figure_size = "1400x900", figure_heatmap, figure_lang = "en", figure_colormap = "diverging";
    bool figure_large = false;
    add_state_options(app, so, false);
#ifdef NORMLAB_HAVE_FIGURE
    app.add_option("--figure", figure, "render the heatmap (selected group highlighted) and histograms to a PNG, headless");
    app.add_option("--figure-size", figure_size, "figure size WxH in pixels (default 1400x900)");
    app.add_option("--figure-heatmap", figure_heatmap, "input | output | diff | stats (default: stats)")
        ->check(CLI::IsMember({"input", "output", "diff", "stats"}));
    app.add_option("--figure-colormap", figure_colormap, "diverging | viridis | cividis")
        ->check(CLI::IsMember({"diverging", "viridis", "cividis"}));
    app.add_option("--figure-lang", figure_lang, "en | zh")->check(CLI::IsMember({"en", "zh"}));
    app.add_flag("--figure-large", figure_large, "large text (the app's presenter font) for slides");
#endif
    app.add_option("--output", output, "write y as a float32 .npy of the input's shape");
    app.add_option("--stats", stats, "write the statistics as JSON");
    app.add_option("--group-map", group_map, "write each element's statistic index as an int32 .npy");
    app.add_option("--device", device, "Vulkan device index or name substring (also NORMLAB_DEVICE)");
    app.add_flag("--list-devices", list_devices, "list Vulkan devices and why each is (not) usable");
    app.add_flag("--list-presets", list_presets, "list the built-in presets");
    app.add_flag("--no-reference", no_reference, "skip the float64 CPU reference check");
    app.add_flag("-q,--quiet", quiet, "print nothing on success");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string msg = e.what();
        throw InputError(msg + " (see --help)");
    }

    if (list_presets) {
        for (const auto& p : presets())
            fmt::print("{:<22} {:<16} {}\n  {}\n", p.name, p.x.shape.str(), p.source, p.description);
        return 0;
    }
    ContextOptions copt = ContextOptions::from_env();
    if (!device.empty()) copt.device = device;
    if (list_devices) {
        auto devs = VulkanContext::list_devices(copt);
        if (devs.empty()) throw DeviceError("the Vulkan loader found no device; install mesa-vulkan-drivers for lavapipe");
        for (const auto& d : devs)
            fmt::print("{}: {} ({}, Vulkan {}){}\n", d.index, d.name, d.type, d.api_version,
                       d.usable ? "" : " - not usable: " + d.reason);
        return 0;
    }
    if (so.norm.empty() && so.scene.empty()) throw InputError("--norm is required (batch, layer, instance, group or rms)");
    if (so.input.empty() && so.shape.empty() && so.preset.empty() && so.scene.empty())
        throw InputError("give an input: --input X.npy, --shape N,C,H,W or --preset NAME");

    if (!figure.empty()) copt.need_graphics = true;  // the figure is drawn with the same queue
    // Check every output before any work: a bad option or an unwritable folder changes nothing.
#ifdef NORMLAB_HAVE_FIGURE
    app::FigureOptions figure_options;
    if (!figure.empty()) {
        if (std::sscanf(figure_size.c_str(), "%dx%d", &figure_options.width, &figure_options.height) != 2 ||
            figure_options.width < 64 || figure_options.height < 64 || figure_options.width > 8192 || figure_options.height > 8192)
            throw InputError("--figure-size must look like 1400x900 (64 to 8192 each), got '" + figure_size + "'");
        figure_options.heatmap = figure_heatmap.empty() ? "stats" : figure_heatmap;
        figure_options.colormap = figure_colormap;
        figure_options.large_text = figure_large;
        figure_options.language = figure_lang == "zh" ? Language::Zh : Language::En;
    }
#endif
    for (const std::string* path : {&output, &stats, &group_map, &figure}) {
        if (path->empty()) continue;
        std::string dir = std::filesystem::path(*path).parent_path().string();
        if (dir.empty()) dir = ".";
        if (::access(dir.c_str(), W_OK) != 0)
            throw InputError("cannot write " + *path + ": the folder " + dir + " is missing or not writable");
    }
    VulkanContext ctx(copt);
    Normalizer normalizer(ctx);
    LoadedState ls = load_state(so, State{}, [&](const Shape4& shape) { normalizer.check_capacity(shape); });
    NormResult r = normalizer.run(ls.x, ls.state.spec, ls.state.params);
    double err = 0;
    if (!no_reference) err = Reference(ls.x, ls.state.spec, ls.state.params).max_abs_error(r.y.data);

#ifdef NORMLAB_HAVE_FIGURE
    if (!figure.empty()) {  // rendered first: a failing figure leaves every other output untouched
        app::render_figure(ctx, ls.state, ls.x, figure_options, figure);
        if (!quiet) fmt::print("figure: {}\n", figure);
    }
#endif
    // Serialize everything first, then write each file atomically.
    std::vector<std::pair<std::string, std::string>> files;
    const auto dims = ls.x.shape.dims();
    const std::vector<std::int64_t> shape(dims.begin(), dims.end());
    if (!output.empty()) files.emplace_back(output, npy_bytes_f32(shape, r.y.data.data()));
    if (!group_map.empty()) {
        auto map = r.layout.group_map();
        files.emplace_back(group_map, npy_bytes_i32(shape, map.data()));
    }
    if (!stats.empty()) files.emplace_back(stats, stats_json(ls.state.spec, r, ctx.device_name(), no_reference ? std::nullopt : std::optional<double>(err)));
    for (const auto& [path, bytes] : files) write_file_atomic(path, bytes);

    if (!quiet) {
        const NormSpec& spec = ls.state.spec;
        fmt::print("{} on {} ({} statistics of {} elements, reduced over {}) on {}\n", method_torch_name(spec.method),
                   ls.x.shape.str(), r.layout.stat_count, r.layout.count(), fmt::join(r.layout.reduced_axes, ","),
                   ctx.device_name());
        if (r.nonfinite_inputs) fmt::print("input holds {} non-finite values (NaN/Inf)\n", r.nonfinite_inputs);
        fmt::print("gpu {:.3f} ms", r.gpu_ms);
        if (!no_reference) fmt::print(", max |y - reference| = {:.3g}", err);
        fmt::print("\n");
    }
    if (ctx.validation_messages() > 0) {
        fmt::print(stderr, "error: {} Vulkan validation messages\n", ctx.validation_messages());
        return 4;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const InputError& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 2;
    } catch (const DeviceError& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 3;
    } catch (const vk::SystemError& e) {
        fmt::print(stderr, "error: Vulkan: {}\n", e.what());
        return 3;
    } catch (const std::bad_alloc&) {
        fmt::print(stderr, "error: out of memory\n");
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 2;
    }
}
