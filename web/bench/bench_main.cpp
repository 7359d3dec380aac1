// normlab's browser bench (bench.html; scripts/bench-web.sh drives it): each method's WGSL forward
// (WgpuNormalizer::run with x already on the device and y left there, as normlab-bench times the
// Vulkan kernels) against a WGSL copy of the same bytes (wgsl_copy.hpp), median over interleaved
// repetitions, each followed by one of onnxruntime-web's (ort_steps.hpp); then the page's end-to-end
// recompute at 8×32×32×32 (PageSession::open_scene, a scene change to the new result). Arguments
// from bench_page.js: --quick (a small shape, few repetitions), --cases a,b (only those cases, no
// recompute). Then each case's backward (WgpuBackward::run, on the adapter's plan and the other plan
// for long statistics). Hands x, each case's y and the JSON to the page (Module.normlabBench*), which adds
// onnxruntime-web's figures and writes <pre id="normlab-bench">.
#include "ort_steps.hpp"
#include "page_session.hpp"
#include "wgsl_copy.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/webgpu/wgpu_backend.hpp"

#include <emscripten.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace normlab;
using nlohmann::json;

namespace {

struct Case {
    const char* name;
    core::Method method;
    bool eval = false;
    std::int64_t groups = 0;
    const char* ort = "";  // the onnxruntime-web model of the same computation (bench/web_models.py)
};

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        {"batch-train", core::Method::Batch},
        {"batch-eval", core::Method::Batch, true, 0, "batch"},
        {"layer-CHW", core::Method::Layer, false, 0, "layer"},
        {"instance", core::Method::Instance, false, 0, "instance"},
        {"group-8", core::Method::Group, false, 8, "group"},
        {"rms", core::Method::Rms, false, 0, "rms"},
    };
    return all;
}

core::NormSpec spec_of(const Case& c) {
    core::NormSpec s = core::default_spec(c.method);
    if (c.eval) s.mode = core::Mode::Eval;
    if (c.groups) s.groups = c.groups;
    return s;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

std::string plan_name(const plan::KernelPlan& p) {
    if (p.from_running) return "apply";
    if (p.looped) return "looped";
    return p.fused ? "fused" : "split" + std::to_string(p.chunks);
}

void hand_over(const char* what, const std::vector<float>& v) {
    EM_ASM({ Module.normlabBenchArray(UTF8ToString($0), HEAPF32.slice($1 >> 2, ($1 >> 2) + $2)); }, what, v.data(),
           v.size());
}

// One case: y once (handed to the page for the check against onnxruntime-web), a warm-up, then
// `reps` rounds of the forward, the copy and onnxruntime-web's model of the case in turn.
json bench_case(webgpu::WgpuNormalizer& norm, webbench::WgslCopy& copy, const core::Tensor& x, const Case& c,
                int reps) {
    const core::NormSpec spec = spec_of(c);
    const std::uint64_t bytes = static_cast<std::uint64_t>(x.shape.numel()) * 4;
    const core::NormResult first = norm.run(x, spec);
    hand_over(c.name, first.y.data);
    const plan::RunOptions on_device{true, false};
    const bool ort = *c.ort != '\0';
    if (ort) webbench::ort_step(norm.context(), "open", c.ort, c.name);
    for (int i = 0; i < 2; ++i) {
        norm.run(x, spec, {}, on_device);
        copy.time_ms(norm.buffers().x, bytes);
    }
    std::vector<double> ms, copy_ms, dispatch_ms;
    for (int i = 0; i < reps; ++i) {
        const double t = emscripten_get_now();
        const core::NormResult r = norm.run(x, spec, {}, on_device);
        ms.push_back(emscripten_get_now() - t);
        dispatch_ms.push_back(r.dispatch_ms);  // submit to the statistics' readback
        copy_ms.push_back(copy.time_ms(norm.buffers().x, bytes));
        if (ort) webbench::ort_step(norm.context(), "run", c.ort, c.name);
    }
    if (ort) webbench::ort_step(norm.context(), "close", c.ort, c.name);
    const std::vector<float> copied = copy.read(bytes);
    if (copied != x.data) throw core::DeviceError("the WGSL copy did not copy x");
    const double m = median(ms), cm = median(copy_ms);
    std::printf("bench: %s %.2f ms, copy %.2f ms\n", c.name, m, cm);
    const plan::KernelPlan plan = norm.plan(core::make_layout(spec, x.shape), spec);
    json out = {{"norm", c.name},
                {"shape", x.shape.str()},
                {"elements", x.shape.numel()},
                {"ms", m},
                {"copy_ms", cm},
                {"efficiency", cm / m},
                {"GBs", 2.0 * static_cast<double>(bytes) / (m * 1e6)},
                {"plan", plan_name(plan)},
                {"ort_model", c.ort},
                {"reps", reps},
                {"dispatch_ms", median(dispatch_ms)}};
    if (!plan.fused && !plan.from_running) {
        // The other kernel for long statistics (split or looped), which this adapter's plan did not choose.
        const webgpu::ScopedLongStats other_plan(norm,
                                                 plan.looped ? webgpu::LongStats::Split : webgpu::LongStats::Looped);
        std::vector<double> alt;
        for (int i = 0; i < reps + 1; ++i) {
            const double t = emscripten_get_now();
            norm.run(x, spec, {}, on_device);
            if (i > 0) alt.push_back(emscripten_get_now() - t);  // run 0 builds the pipelines
        }
        out["alt_plan"] = plan_name(norm.plan(core::make_layout(spec, x.shape), spec));
        out["alt_ms"] = median(alt);
        std::printf("bench: %s %s %.2f ms\n", c.name, out["alt_plan"].get<std::string>().c_str(), median(alt));
    }
    return out;
}

// The backward of one case (WgpuBackward::run: dy uploaded, every pass, ∂L/∂x and the γ/β sums read
// back, normlab/plan/backward_plan.hpp's path): the median of `reps` runs after a warm-up and, where the
// forward did not fuse, of the looped kernel kept off (split) or forced, interleaved run by run.
json bench_backward(webgpu::WgpuNormalizer& norm, const core::Tensor& x, const core::Tensor& dy, const Case& c,
                    int reps) {
    const core::NormSpec spec = spec_of(c);
    norm.run(x, spec);
    webgpu::WgpuBackward backward(norm);
    backward.run(dy);
    const std::string path = backward.last_path();
    const bool other = path == "looped" || path == "split";
    const plan::ForcedPath alt = path == "looped" ? plan::ForcedPath::Split : plan::ForcedPath::Looped;
    std::vector<double> ms, alt_ms;
    std::string alt_path;
    for (int i = 0; i <= reps; ++i) {  // run 0 builds the other plan's pipelines
        double t = emscripten_get_now();
        if (i > 0) {
            backward.run(dy);
            ms.push_back(emscripten_get_now() - t);
        }
        if (!other) continue;
        const webgpu::ScopedGradPath forced(norm, alt);
        t = emscripten_get_now();
        backward.run(dy);
        if (i > 0) alt_ms.push_back(emscripten_get_now() - t);
        alt_path = backward.last_path();
    }
    json out = {{"norm", c.name}, {"path", path}, {"ms", median(ms)}, {"reps", reps}};
    std::printf("bench: backward %s %s %.2f ms", c.name, path.c_str(), median(ms));
    if (other) {
        out["alt_path"] = alt_path;
        out["alt_ms"] = median(alt_ms);
        std::printf(", %s %.2f ms", alt_path.c_str(), median(alt_ms));
    }
    std::printf("\n");
    return out;
}

// The page's recompute: each open is a scene change (the method differs from the last one's).
json bench_e2e(webgpu::WgpuBackend& backend, int rounds) {
    const std::vector<std::pair<std::string, std::string>> scenes = {{"batch-train", R"("method": "batch")"},
                                                                     {"layer-CHW", R"("method": "layer")"},
                                                                     {"instance", R"("method": "instance")"},
                                                                     {"group-8", R"("method": "group", "groups": 8)"},
                                                                     {"rms", R"("method": "rms")"}};
    web::PageSession page(backend);
    std::vector<std::vector<double>> ms(scenes.size());
    for (int r = 0; r <= rounds; ++r) {  // round 0 is the warm-up (pipelines built)
        for (std::size_t i = 0; i < scenes.size(); ++i) {
            const std::string text =
                R"({"normlab_scene": 1, "tensor": {"source": "generated", "shape": [8, 32, 32, 32],)"
                R"( "init": "randn", "seed": 3}, "norm": {)" +
                scenes[i].second + "}}";
            const double t = emscripten_get_now();
            page.open_scene(text, "the bench's scene");
            if (r > 0) ms[i].push_back(emscripten_get_now() - t);
            std::printf("bench: recompute %s %.1f ms\n", scenes[i].first.c_str(), emscripten_get_now() - t);
        }
    }
    json out = json::array();
    for (std::size_t i = 0; i < scenes.size(); ++i)
        out.push_back({{"norm", scenes[i].first}, {"shape", "8x32x32x32"}, {"ms", median(ms[i])}, {"reps", rounds}});
    return out;
}

// `only`: the cases to run, comma-separated (all when empty; then the page's recompute too).
json run_bench(bool quick, const std::string& only) {
    webgpu::WgpuContext ctx;
    webgpu::WgpuBackend backend(ctx);
    webbench::WgslCopy copy(ctx);
    const core::Shape4 shape = quick ? core::Shape4{2, 8, 16, 16} : core::Shape4{16, 64, 64, 64};
    const int reps = quick ? 5 : 15;
    const core::Tensor x = make_tensor(shape, core::Init::Randn, 1);
    hand_over("x", x.data);
    webbench::ort_step(ctx, "load", shape.str());
    json out;
    out["device"] = ctx.device_name();
    out["shape"] = shape.str();
    out["dims"] = {shape.n, shape.c, shape.h, shape.w};
    out["timing"] =
        "wall clock from submit until a mapAsync readback of a few bytes after the kernel has finished "
        "(normlab: its statistics, as every page run; the copy: 16 bytes of its output); median of reps";
    out["cases"] = json::array();
    const auto wanted = [&](const Case& c) {
        return only.empty() || ("," + only + ",").find(std::string(",") + c.name + ",") != std::string::npos;
    };
    for (const Case& c : cases())
        if (wanted(c)) out["cases"].push_back(bench_case(backend.normalizer(), copy, x, c, reps));
    if (out["cases"].empty()) throw core::InputError("bench: no case is named in --cases " + only);
    const core::Tensor dy = make_tensor(shape, core::Init::Randn, 2);
    out["backward"] = json::array();
    for (const Case& c : cases())
        if (wanted(c)) out["backward"].push_back(bench_backward(backend.normalizer(), x, dy, c, reps));
    out["e2e"] = only.empty() ? bench_e2e(backend, quick ? 1 : 7) : json::array();
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    umask(022);  // emscripten starts with 0777 (docs/browser.md)
    bool quick = false;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        quick = quick || std::string(argv[i]) == "--quick";
        if (std::string(argv[i]) == "--cases" && i + 1 < argc) only = argv[++i];
    }
    std::string text, error;
    try {
        text = run_bench(quick, only).dump();
    } catch (const std::exception& e) {
        error = e.what();
    }
    EM_ASM({ Module.normlabBenchDone(UTF8ToString($0), UTF8ToString($1)); }, text.c_str(), error.c_str());
    return 0;
}
