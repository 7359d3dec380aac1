// normlab-bench: times every method against the fastest copy of the same bytes on the same
// device (GPU timestamps, warm-up, median over interleaved repetitions), plus the end-to-end
// recompute the app does (upload, dispatch, readback).
#include "copy_bench.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"
#include "normlab/normalizer.hpp"
#include "normlab/tensor_init.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <functional>

using namespace normlab;
using nlohmann::json;

namespace {

struct Case {
    std::string name;
    std::function<std::optional<NormSpec>(const Shape4&)> spec;  // empty: not applicable
};

std::vector<Case> cases() {
    auto simple = [](Method m) { return [m](const Shape4&) -> std::optional<NormSpec> { return default_spec(m); }; };
    return {
        {"batch-train", simple(Method::Batch)},
        {"batch-eval", [](const Shape4&) -> std::optional<NormSpec> { auto s = default_spec(Method::Batch); s.mode = Mode::Eval; return s; }},
        {"layer-W", [](const Shape4& x) -> std::optional<NormSpec> { auto s = default_spec(Method::Layer); s.normalized_shape = {x.w}; return s; }},
        {"layer-HW", [](const Shape4& x) -> std::optional<NormSpec> { auto s = default_spec(Method::Layer); s.normalized_shape = {x.h, x.w}; return s; }},
        {"layer-CHW", simple(Method::Layer)},
        {"instance", simple(Method::Instance)},
        {"group-1", [](const Shape4&) -> std::optional<NormSpec> { auto s = default_spec(Method::Group); s.groups = 1; return s; }},
        {"group-8", [](const Shape4& x) -> std::optional<NormSpec> {
             if (x.c % 8) return std::nullopt;
             auto s = default_spec(Method::Group); s.groups = 8; return s; }},
        {"group-C", [](const Shape4& x) -> std::optional<NormSpec> { auto s = default_spec(Method::Group); s.groups = x.c; return s; }},
        {"rms", simple(Method::Rms)},
    };
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

json params_json(const NormSpec& s, const Shape4& x) {
    json p;
    p["affine"] = s.affine;
    if (s.method == Method::Batch) p["mode"] = mode_name(s.mode);
    if (s.method == Method::Group) p["groups"] = s.groups;
    if (s.method == Method::Layer || s.method == Method::Rms) p["normalized_shape"] = s.effective_normalized_shape(x);
    return p;
}

int run(int argc, char** argv) {
    CLI::App app{"normlab-bench: normalization kernels against the device's copy"};
    std::vector<std::string> shapes, norms;
    std::string json_path, device;
    bool quick = false;
    int reps = 0;
    app.add_option("--shape", shapes, "N,C,H,W (repeatable; default: a ladder from 2x4x4x4 to 16x64x64x64 and beyond)");
    app.add_option("--norm", norms, "case names (repeatable): batch-train batch-eval layer-W layer-HW layer-CHW instance group-1 group-8 group-C rms");
    app.add_option("--json", json_path, "write the records as JSON");
    app.add_option("--reps", reps, "repetitions per case (default: adaptive)");
    app.add_option("--device", device, "Vulkan device index or name substring");
    app.add_flag("--quick", quick, "a few shapes, few repetitions (under 20 s)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        throw InputError(std::string(e.what()) + " (see --help)");
    }
    std::vector<Shape4> sizes;
    for (const auto& s : shapes) sizes.push_back(Shape4::from_dims(parse_dims(s, "--shape", 4, 4)));
    if (sizes.empty()) {
        if (quick) sizes = {{2, 4, 4, 4}, {4, 16, 32, 32}, {16, 64, 64, 64}};
        else sizes = {{2, 4, 4, 4}, {2, 8, 8, 8}, {4, 16, 8, 8}, {4, 16, 16, 16}, {4, 16, 32, 32}, {4, 32, 32, 64},
                      {8, 32, 64, 64}, {16, 64, 64, 64}, {16, 64, 128, 128}, {16, 64, 256, 256}};
    }
    auto all = cases();
    std::vector<Case> selected;
    for (const auto& c : all)
        if (norms.empty() || std::find(norms.begin(), norms.end(), c.name) != norms.end()) selected.push_back(c);
    for (const auto& n : norms)
        if (std::none_of(all.begin(), all.end(), [&](const Case& c) { return c.name == n; }))
            throw InputError("unknown --norm case '" + n + "'");

    ContextOptions copt = ContextOptions::from_env();
    if (!device.empty()) copt.device = device;
    VulkanContext ctx(copt);
    Normalizer normalizer(ctx);
    CopyBench copy(ctx);
    json records = json::array();
    fmt::print("device: {}\nmemory: {}\n", ctx.device_name(), describe_memory(ctx.memory_properties(), ctx.direct_mapping_allowed()));
    fmt::print("{:<12} {:>18} {:>10} {:>9} {:>9} {:>6} {:>6} {:>8} {:>9} {:>8} {:>8} {:>8} {:>7}\n", "norm", "shape", "elements", "gpu_ms",
               "copy_ms", "eff", "eff_sh", "GB/s", "e2e_ms", "up_ms", "disp_ms", "down_ms", "plan");
    for (const Shape4& shape : sizes) {
        try {
            normalizer.check_capacity(shape);
        } catch (const InputError& e) {
            fmt::print("{:<12} {:>18} skipped: {}\n", "*", shape.str(), e.what());
            continue;
        }
        Tensor x = make_tensor(shape, Init::Randn, 1);
        const std::uint64_t bytes = static_cast<std::uint64_t>(shape.numel()) * 4;
        for (const auto& c : selected) {
            auto spec = c.spec(shape);
            if (!spec) continue;
            try {
                make_layout(*spec, shape);
            } catch (const InputError&) {
                continue;
            }
            // Warm-up (pipeline creation, buffer allocation, first-touch of memory).
            for (int i = 0; i < 2; ++i) normalizer.run(x, *spec);
            for (const auto& v : CopyBench::variants()) copy.time_ms(bytes, v);
            int n = reps > 0 ? reps : quick ? 3 : std::clamp(static_cast<int>(2e8 / static_cast<double>(bytes * 8 + 1)), 5, 25);
            std::vector<double> gpu, e2e, up, disp, down;
            std::map<std::string, std::vector<double>> copies;
            for (int r = 0; r < n; ++r) {  // interleaved, so drift hits both
                auto t0 = std::chrono::steady_clock::now();
                NormResult res = normalizer.run(x, *spec);
                auto t1 = std::chrono::steady_clock::now();
                gpu.push_back(res.gpu_ms);
                e2e.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                up.push_back(res.upload_ms);
                disp.push_back(res.dispatch_ms);
                down.push_back(res.readback_ms);
                for (const auto& v : CopyBench::variants()) copies[v].push_back(copy.time_ms(bytes, v));
            }
            double best_copy = 1e30, best_shader_copy = 1e30;
            std::string best_variant;
            for (auto& [v, times] : copies) {
                double m = median(times);
                if (m < best_copy) {
                    best_copy = m;
                    best_variant = v;
                }
                if (v.rfind("shader", 0) == 0) best_shader_copy = std::min(best_shader_copy, m);
            }
            const double g = median(gpu);
            const KernelPlan plan = normalizer.plan(make_layout(*spec, shape), *spec);
            const std::string plan_name = plan.stats_from_running ? "apply" : plan.fused ? "fused" : "split" + std::to_string(plan.chunks);
            json rec;
            rec["norm"] = c.name;
            rec["method"] = method_name(spec->method);
            rec["params"] = params_json(*spec, shape);
            rec["shape"] = shape.dims();
            rec["elements"] = shape.numel();
            rec["gpu_ms"] = g;
            rec["copy_ms"] = best_copy;
            rec["copy_variant"] = best_variant;
            rec["efficiency"] = best_copy / g;
            rec["shader_copy_ms"] = best_shader_copy;  // the best compute-shader copy alone
            rec["shader_efficiency"] = best_shader_copy / g;
            rec["gbps"] = 2.0 * static_cast<double>(bytes) / (g * 1e6);
            rec["end_to_end_ms"] = median(e2e);  // run(): validation, upload, dispatch, readback
            rec["upload_ms"] = median(up);
            rec["dispatch_ms"] = median(disp);
            rec["readback_ms"] = median(down);
            rec["plan"] = plan_name;
            rec["repetitions"] = n;
            rec["device"] = ctx.device_name();
            records.push_back(rec);
            fmt::print("{:<12} {:>18} {:>10} {:>9.3f} {:>9.3f} {:>6.2f} {:>6.2f} {:>8.2f} {:>9.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>7}\n", c.name,
                       shape.str(), shape.numel(), g, best_copy, best_copy / g, best_shader_copy / g, rec["gbps"].get<double>(), median(e2e),
                       median(up), median(disp), median(down), plan_name);
            std::fflush(stdout);
        }
    }
    if (!json_path.empty()) write_file_atomic(json_path, records.dump(1) + "\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const InputError& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 3;
    }
}
