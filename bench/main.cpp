// normlab-bench: times every method against the fastest copy of the same bytes on the same
// device (GPU timestamps, warm-up, median over interleaved repetitions), plus the end-to-end
// recompute the app does (upload, dispatch, readback); and each case's backward pass (reads x
// and dy, writes dx: three streams, scored against 1.5 copies) unless --no-backward. Exit status as normlab-cli's
// (normlab/core/error.hpp): 2 bad options, 3 no usable device or a device fault, 4 validation messages.
#include "copy_bench.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/ops/backward.hpp"
#include "normlab/core/error.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/core/tensor_init.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>

using namespace normlab;
using nlohmann::json;

namespace {

struct Case {
    std::string name;
    std::function<std::optional<core::NormSpec>(const core::Shape4&)> spec;  // empty: not applicable
};

std::vector<Case> cases() {
    auto simple = [](core::Method m) {
        return [m](const core::Shape4&) -> std::optional<core::NormSpec> { return core::default_spec(m); };
    };
    return {
        {"batch-train", simple(core::Method::Batch)},
        {"batch-eval",
         [](const core::Shape4&) -> std::optional<core::NormSpec> {
             auto s = core::default_spec(core::Method::Batch);
             s.mode = core::Mode::Eval;
             return s;
         }},
        {"layer-W",
         [](const core::Shape4& x) -> std::optional<core::NormSpec> {
             auto s = core::default_spec(core::Method::Layer);
             s.normalized_shape = {x.dims().back()};
             return s;
         }},
        {"layer-HW",
         [](const core::Shape4& x) -> std::optional<core::NormSpec> {
             const auto d = x.dims();  // the last two dims: [H, W] ([L, D] at rank 3; none at rank 2)
             if (d.size() < 3) return std::nullopt;
             auto s = core::default_spec(core::Method::Layer);
             s.normalized_shape = {d.end() - 2, d.end()};
             return s;
         }},
        {"layer-CHW", simple(core::Method::Layer)},
        {"instance", simple(core::Method::Instance)},
        {"group-1",
         [](const core::Shape4&) -> std::optional<core::NormSpec> {
             auto s = core::default_spec(core::Method::Group);
             s.groups = 1;
             return s;
         }},
        {"group-8",
         [](const core::Shape4& x) -> std::optional<core::NormSpec> {
             if (x.c % 8) return std::nullopt;
             auto s = core::default_spec(core::Method::Group);
             s.groups = 8;
             return s;
         }},
        {"group-C",
         [](const core::Shape4& x) -> std::optional<core::NormSpec> {
             auto s = core::default_spec(core::Method::Group);
             s.groups = x.c;
             return s;
         }},
        {"rms", simple(core::Method::Rms)},
    };
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

json params_json(const core::NormSpec& s, const core::Shape4& x) {
    json p;
    p["affine"] = s.affine;
    if (s.method == core::Method::Batch) p["mode"] = core::mode_name(s.mode);
    if (s.method == core::Method::Group) p["groups"] = s.groups;
    if (s.method == core::Method::Layer || s.method == core::Method::Rms)
        p["normalized_shape"] = s.effective_normalized_shape(x);
    return p;
}

struct BenchOptions {
    std::vector<std::string> shapes, norms;
    std::string json_path, device;
    bool quick = false, no_backward = false;
    int reps = 0;
};

std::string case_names() {
    std::string out;
    for (const auto& c : cases()) out += (out.empty() ? "" : " ") + c.name;
    return out;
}

// Parses the command line into `o`; a value when the program should exit with it (--help).
std::optional<int> parse(int argc, char** argv, BenchOptions& o) {
    CLI::App app{"normlab-bench: normalization kernels against the device's copy"};
    app.add_option(
        "--shape", o.shapes,
        "N,C,H,W, N,C, N,L,D or N,C,D,H,W (repeatable; default: a ladder from 2x4x4x4 to 16x64x64x64 and beyond)");
    app.add_option("--norm", o.norms, "case names (repeatable): " + case_names());
    app.add_option("--json", o.json_path, "write the records as JSON");
    app.add_option("--reps", o.reps, "repetitions per case (default: adaptive)");
    app.add_option("--device", o.device, "Vulkan device index or name substring");
    app.add_flag("--quick", o.quick, "a few shapes, few repetitions (under 20 s)");
    app.add_flag("--no-backward", o.no_backward, "time the forward pass only");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        throw core::InputError(std::string(e.what()) + " (see --help)");
    }
    return std::nullopt;
}

std::vector<core::Shape4> bench_shapes(const BenchOptions& o) {
    std::vector<core::Shape4> sizes;
    for (const auto& s : o.shapes) sizes.push_back(core::Shape4::from_dims(core::parse_dims(s, "--shape", 2, 5)));
    if (!sizes.empty()) return sizes;
    if (o.quick) return {{2, 4, 4, 4}, {4, 16, 32, 32}, {16, 64, 64, 64}};
    return {{2, 4, 4, 4},    {2, 8, 8, 8},    {4, 16, 8, 8},    {4, 16, 16, 16},    {4, 16, 32, 32},
            {4, 32, 32, 64}, {8, 32, 64, 64}, {16, 64, 64, 64}, {16, 64, 128, 128}, {16, 64, 256, 256}};
}

std::vector<Case> selected_cases(const std::vector<std::string>& norms) {
    auto all = cases();
    for (const auto& n : norms)
        if (std::none_of(all.begin(), all.end(), [&](const Case& c) { return c.name == n; }))
            throw core::InputError("unknown --norm case '" + n + "'");
    std::vector<Case> selected;
    for (const auto& c : all)
        if (norms.empty() || std::find(norms.begin(), norms.end(), c.name) != norms.end()) selected.push_back(c);
    return selected;
}

// Median times of one case over interleaved repetitions, so drift hits both.
struct Timings {
    double gpu = 0, e2e = 0, up = 0, disp = 0, down = 0;
    double bw_gpu = 0, bw_e2e = 0;    // the backward (0 when not timed)
    double bus_up = 0, bus_down = 0;  // vkCmdCopyBuffer host → device and device → host of x's bytes
    double best_copy = 1e30, best_shader_copy = 1e30;
    std::string best_variant;
    double timed_from = 0, timed_to = 0;  // the back-to-back part, Unix seconds (scripts/gpu-bench.sh's clock)
};

double unix_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Timings time_case(ops::Normalizer& normalizer, ops::Backward* backward, CopyBench& copy, const core::Tensor& x,
                  const core::Tensor& dy, const core::NormSpec& spec, int n) {
    const std::uint64_t bytes = static_cast<std::uint64_t>(x.shape.numel()) * 4;
    std::vector<double> gpu, e2e, up, disp, down, bw_gpu, bw_e2e, bus_up, bus_down;
    std::map<std::string, std::vector<double>> copies;
    for (int r = 0; r < n; ++r) {  // end to end: upload x, run, read y back
        auto t0 = std::chrono::steady_clock::now();
        core::NormResult res = normalizer.run(x, spec);
        auto t1 = std::chrono::steady_clock::now();
        e2e.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        up.push_back(res.upload_ms);
        disp.push_back(res.dispatch_ms);
        down.push_back(res.readback_ms);
        // The backward of the run just timed: dy up, dx (and dγ, dβ) back. Its GPU time follows
        // host transfers: on a GPU whose clock drops while it waits, an upper bound.
        if (backward) {
            t0 = std::chrono::steady_clock::now();
            core::GradResult g = backward->run(dy);
            t1 = std::chrono::steady_clock::now();
            bw_gpu.push_back(g.gpu_ms);
            bw_e2e.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
    }
    // The kernels and the copies, back to back with x kept on the device and y not read: a GPU
    // left idle through a host transfer lowers its clocks, and the first kernel after it would
    // be timed at those.
    const plan::RunOptions steady{.reuse_x = true, .read_y = false};
    // Clocks back up: the GPU copies back to back for 0.3 s (a GPU's clock governor looks at
    // how busy it was over the last tenths of a second, not at the next kernel).
    for (auto t0 = std::chrono::steady_clock::now();
         std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(300);)
        copy.time_ms(bytes, "shader-v4");
    for (int i = 0; i < 3; ++i) normalizer.run(x, spec, {}, steady);
    const double timed_from = unix_seconds();
    for (int r = 0; r < n; ++r) {
        gpu.push_back(normalizer.run(x, spec, {}, steady).gpu_ms);
        for (const auto& v : CopyBench::variants()) copies[v].push_back(copy.time_ms(bytes, v));
        bus_up.push_back(copy.transfer_ms(bytes, true));
        bus_down.push_back(copy.transfer_ms(bytes, false));
    }
    Timings t;
    t.timed_from = timed_from;
    t.timed_to = unix_seconds();
    t.gpu = median(gpu);
    t.e2e = median(e2e);
    t.up = median(up);
    t.disp = median(disp);
    t.down = median(down);
    t.bw_gpu = median(bw_gpu);
    t.bw_e2e = median(bw_e2e);
    t.bus_up = median(bus_up);
    t.bus_down = median(bus_down);
    for (auto& [v, times] : copies) {
        double m = median(times);
        if (m < t.best_copy) {
            t.best_copy = m;
            t.best_variant = v;
        }
        if (v.rfind("shader", 0) == 0) t.best_shader_copy = std::min(t.best_shader_copy, m);
    }
    return t;
}

json record(const Case& c, const core::NormSpec& spec, const core::Shape4& shape, const Timings& t,
            const std::string& plan, int n, const std::string& device) {
    const std::uint64_t bytes = static_cast<std::uint64_t>(shape.numel()) * 4;
    json rec;
    rec["norm"] = c.name;
    rec["method"] = core::method_name(spec.method);
    rec["params"] = params_json(spec, shape);
    rec["shape"] = shape.dims();
    rec["elements"] = shape.numel();
    rec["gpu_ms"] = t.gpu;
    rec["copy_ms"] = t.best_copy;
    rec["copy_variant"] = t.best_variant;
    rec["efficiency"] = t.best_copy / t.gpu;
    rec["shader_copy_ms"] = t.best_shader_copy;  // the best compute-shader copy alone
    rec["shader_efficiency"] = t.best_shader_copy / t.gpu;
    rec["gbps"] = 2.0 * static_cast<double>(bytes) / (t.gpu * 1e6);
    rec["end_to_end_ms"] = t.e2e;  // run(): validation, upload, dispatch, readback
    rec["upload_ms"] = t.up;
    rec["dispatch_ms"] = t.disp;
    rec["readback_ms"] = t.down;
    // Transfers: x up and y back (host wall time of Staging) against the bus's vkCmdCopyBuffer.
    auto gbps = [&](double ms) { return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : 0.0; };
    rec["upload_gbps"] = gbps(t.up);
    rec["readback_gbps"] = gbps(t.down);
    rec["bus_upload_gbps"] = gbps(t.bus_up);
    rec["bus_readback_gbps"] = gbps(t.bus_down);
    if (t.bw_gpu > 0) {
        // The backward reads x and dy and writes dx: three streams against the copy's two.
        rec["backward_gpu_ms"] = t.bw_gpu;
        rec["backward_efficiency"] = 1.5 * t.best_copy / t.bw_gpu;
        rec["backward_shader_efficiency"] = 1.5 * t.best_shader_copy / t.bw_gpu;
        rec["backward_gbps"] = 3.0 * static_cast<double>(bytes) / (t.bw_gpu * 1e6);
        rec["backward_end_to_end_ms"] = t.bw_e2e;
    }
    rec["plan"] = plan;
    rec["repetitions"] = n;
    rec["timed_from_unix"] = t.timed_from;  // the kernels and copies back to back, for the clock record
    rec["timed_to_unix"] = t.timed_to;
    rec["device"] = device;
    return rec;
}

// Benchmarks one case on one shape: nullopt when the case does not apply to the shape.
std::optional<json> bench_case(const BenchOptions& o, ops::Normalizer& normalizer, ops::Backward* backward,
                               CopyBench& copy, const Case& c, const core::Tensor& x, const core::Tensor& dy,
                               const std::string& device) {
    const core::Shape4& shape = x.shape;
    auto spec = c.spec(shape);
    if (!spec) return std::nullopt;
    try {
        core::make_layout(*spec, shape);
    } catch (const core::InputError&) {
        return std::nullopt;
    }
    const std::uint64_t bytes = static_cast<std::uint64_t>(shape.numel()) * 4;
    // Warm-up (pipeline creation, buffer allocation, first-touch of memory).
    for (int i = 0; i < 2; ++i) {
        normalizer.run(x, *spec);
        if (backward) backward->run(dy);
    }
    for (const auto& v : CopyBench::variants()) copy.time_ms(bytes, v);
    const int n = o.reps > 0 ? o.reps
                  : o.quick  ? 3
                             : std::clamp(static_cast<int>(2e8 / static_cast<double>(bytes * 8 + 1)), 5, 25);
    const Timings t = time_case(normalizer, backward, copy, x, dy, *spec, n);
    const plan::KernelPlan plan = normalizer.plan(core::make_layout(*spec, shape), *spec);
    const std::string plan_name = plan.from_running              ? "apply"
                                  : plan.fused                   ? "fused"
                                  : normalizer.last_run_looped() ? "looped"
                                                                 : "split" + std::to_string(plan.chunks);
    json rec = record(c, *spec, shape, t, plan_name, n, device);
    fmt::print(
        "{:<12} {:>18} {:>10} {:>9.3f} {:>9.3f} {:>6.2f} {:>6.2f} {:>8.2f} {:>9.3f} {:>8.3f} {:>8.3f} "
        "{:>8.3f} {:>7} {:>9.3f} {:>6.2f} {:>6.2f} {:>7.2f} {:>7.2f} {:>7.2f} {:>7.2f}\n",
        c.name, shape.str(), shape.numel(), t.gpu, t.best_copy, t.best_copy / t.gpu, t.best_shader_copy / t.gpu,
        rec["gbps"].get<double>(), t.e2e, t.up, t.disp, t.down, plan_name, t.bw_gpu,
        t.bw_gpu > 0 ? 1.5 * t.best_copy / t.bw_gpu : 0.0, t.bw_gpu > 0 ? 1.5 * t.best_shader_copy / t.bw_gpu : 0.0,
        rec["upload_gbps"].get<double>(), rec["readback_gbps"].get<double>(), rec["bus_upload_gbps"].get<double>(),
        rec["bus_readback_gbps"].get<double>());
    std::fflush(stdout);
    return rec;
}

int run(int argc, char** argv) {
    BenchOptions o;
    if (auto help = parse(argc, argv, o)) return *help;
    const std::vector<core::Shape4> sizes = bench_shapes(o);
    const std::vector<Case> selected = selected_cases(o.norms);

    gpu::ContextOptions copt = gpu::ContextOptions::from_env();
    if (!o.device.empty()) copt.device = o.device;
    gpu::VulkanContext ctx(copt);
    ops::Normalizer normalizer(ctx);
    ops::Backward backward(normalizer);
    CopyBench copy(ctx);
    json records = json::array();
    fmt::print("device: {}\nmemory: {}\n", ctx.device_name(),
               gpu::describe_memory(ctx.memory_properties(), ctx.direct_mapping_allowed()));
    fmt::print(
        "{:<12} {:>18} {:>10} {:>9} {:>9} {:>6} {:>6} {:>8} {:>9} {:>8} {:>8} {:>8} {:>7} {:>9} {:>6} {:>6} "
        "{:>7} {:>7} {:>7} {:>7}\n",
        "norm", "shape", "elements", "gpu_ms", "copy_ms", "eff", "eff_sh", "GB/s", "e2e_ms", "up_ms", "disp_ms",
        "down_ms", "plan", "bw_ms", "bw_eff", "bw_sh", "up_GBs", "dn_GBs", "bus_up", "bus_dn");
    for (const core::Shape4& shape : sizes) {
        try {
            normalizer.check_capacity(shape);
        } catch (const core::InputError& e) {
            fmt::print("{:<12} {:>18} skipped: {}\n", "*", shape.str(), e.what());
            continue;
        }
        const core::Tensor x = make_tensor(shape, core::Init::Randn, 1);
        const core::Tensor dy = o.no_backward ? core::Tensor{} : make_tensor(shape, core::Init::Randn, 2);
        ops::Backward* bw = o.no_backward ? nullptr : &backward;
        for (const auto& c : selected)
            if (auto rec = bench_case(o, normalizer, bw, copy, c, x, dy, ctx.device_name())) records.push_back(*rec);
    }
    if (!o.json_path.empty()) io::write_file_atomic(o.json_path, records.dump(1) + "\n");
    return core::validation_status(ctx.validation_messages());
}

}  // namespace

int main(int argc, char** argv) {
    return core::run_main([&] { return run(argc, argv); });
}
