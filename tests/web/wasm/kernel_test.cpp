#include "kernel_test.hpp"

#include "heatmap_test.hpp"
#include "histogram_test.hpp"
#include "session_test.hpp"
#include "sync_test.hpp"

#include "normlab/plan/backward_plan.hpp"
#include "normlab/core/grad.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/reference/grad_reference.hpp"
#include "kernel_cases.hpp"
#include "random_configs.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

namespace normlab::web {
namespace {

using test::describe;
using test::random_config;
using test::random_shape;
using test::valid;
using webgpu::WgpuBackward;
using webgpu::WgpuNormalizer;

const core::Method kMethods[] = {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                                 core::Method::Rms};

// The tolerances of tests/gpu/test_random_vs_reference.cpp.
struct Tolerance {
    double y = 1e-4, mean = 1e-5, var = 1e-5, running = 1e-5;
};

struct Errors {
    double y = 0, mean = 0, var = 0, running = 0;
};

// max |a − b| (relative to max(1, |b|) when `relative`); NaN on both sides counts as equal, so
// does the same infinity.
double maxdiff(const std::vector<double>& a, const std::vector<double>& b, bool relative) {
    if (a.size() != b.size()) return INFINITY;
    double w = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(a[i]) && std::isnan(b[i])) continue;
        if (std::isinf(a[i]) && a[i] == b[i]) continue;
        double d = std::abs(a[i] - b[i]);
        if (relative) d /= std::max(1.0, std::abs(b[i]));
        w = std::max(w, std::isnan(d) ? INFINITY : d);
    }
    return w;
}

Errors compare(const core::NormResult& gpu, const reference::Reference& ref, const core::NormSpec& spec) {
    const core::NormResult& rs = ref.stats();
    Errors e;
    e.y = ref.max_abs_error(gpu.y.data);
    if (spec.method == core::Method::Rms) {
        e.mean = maxdiff(gpu.mean_square, rs.mean_square, true);
    } else {
        e.mean = maxdiff(gpu.mean, rs.mean, false);
        e.var = maxdiff(gpu.var, rs.var, true);
    }
    e.running =
        std::max(maxdiff(gpu.running_mean, rs.running_mean, false), maxdiff(gpu.running_var, rs.running_var, true));
    return e;
}

}  // namespace

// tests/gpu/test_backward.cpp's rel_err: max |a − b| relative to max(1, max |b|).
double rel_err(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return INFINITY;
    double w = 0, m = 1;
    for (double v : b) m = std::max(m, std::abs(v));
    for (std::size_t i = 0; i < a.size(); ++i) w = std::max(w, std::abs(a[i] - b[i]));
    return w / m;
}

// The backward's worst error (∂L/∂x, ∂L/∂γ, ∂L/∂β) against reference_backward.
double grad_error(const core::GradResult& g, const reference::GradReference& ref) {
    const std::vector<double> dx(g.dx.data.begin(), g.dx.data.end());
    return std::max({rel_err(dx, ref.dx), rel_err(g.dweight, ref.dweight), rel_err(g.dbias, ref.dbias)});
}

namespace {

class Suite {
public:
    Suite(webgpu::WgpuNormalizer& n, webgpu::WgpuBackward& b) : n_(n), b_(b) {}

    // Runs one case and checks every error against its tolerance; with `grad`, also the backward
    // of L = Σ dy⊙y for a random dy (tests/gpu/test_backward.cpp's tolerance, 1e-4 relative).
    // A statistic too long for the fused kernel is run twice, by the split and the looped
    // kernels (the adapter's plan first, for the backward), both checked.
    Errors check(const std::string& group, const core::Tensor& x, const core::NormSpec& spec,
                 const core::NormParams& params, Tolerance tol = {}, bool y_only = false, bool grad = true) {
        const auto plan = n_.plan(core::make_layout(spec, x.shape), spec);
        ++cases_;
        count_path(plan);
        ++paths_[plan.vec4 ? "vec4" : "scalar"];  // 16-byte or one-float accesses
        ++methods_[core::method_name(spec.method)];
        Errors e;
        const auto t0 = std::chrono::steady_clock::now();
        struct Clock {  // adds the case's time to its group's, however it ends
            std::chrono::steady_clock::time_point t0;
            double& ms;
            ~Clock() { ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); }
        } clock{t0, group_ms_[group]};
        try {
            const core::NormResult r = n_.run(x, spec, params);
            const reference::Reference ref(x, spec, params);
            e = compare(r, ref, spec);
            if (grad) check_grad(group, ref, plan, core::make_layout(spec, x.shape));
            if (!plan.fused && !plan.from_running) {
                const webgpu::ScopedLongStats other_plan(
                    n_, plan.looped ? webgpu::LongStats::Split : webgpu::LongStats::Looped);
                count_path(n_.plan(core::make_layout(spec, x.shape), spec));
                const Errors other = compare(n_.run(x, spec, params), ref, spec);
                e = {std::max(e.y, other.y), std::max(e.mean, other.mean), std::max(e.var, other.var),
                     std::max(e.running, other.running)};
            }
        } catch (const std::exception& ex) {
            fail(group, x.shape, spec, std::string("threw: ") + ex.what());
            return e;
        }
        auto over = [&](const char* what, double v, double limit) {
            if (!(v <= limit)) {
                std::ostringstream os;
                os << what << " error " << v << " > " << limit;
                fail(group, x.shape, spec, os.str());
            }
        };
        over("y", e.y, tol.y);
        if (!y_only) {
            over("mean", e.mean, tol.mean);
            over("var", e.var, tol.var);
            over("running", e.running, tol.running);
        }
        return e;
    }

    void count_path(const plan::KernelPlan& plan) {
        if (plan.from_running)
            ++paths_["running"];
        else if (plan.fused)
            ++paths_["fused"];
        else if (plan.looped)
            ++paths_["looped"];
        else
            ++paths_[plan.chunks > 16 ? "split_many_chunks" : "split"];
    }

    // The backward of the forward just run, against the float64 reference; where the forward did not
    // fuse, also with the looped kernel forced or kept off (the plan the adapter did not choose).
    void check_grad(const std::string& group, const reference::Reference& ref, const plan::KernelPlan& plan,
                    const core::StatLayout& layout) {
        const core::Tensor dy =
            make_tensor(ref.x().shape, core::Init::Randn, 9000 + static_cast<std::uint64_t>(grad_cases_));
        ++grad_cases_;
        const bool cols = ref.spec().method == core::Method::Layer || ref.spec().method == core::Method::Rms;
        ++grad_paths_[plan.from_running ? "eval" : cols ? "columns" : "rows"];
        if (layout.count() > 2048) ++grad_paths_["chunked"];
        // The backward plan's path (normlab/plan/backward_plan.hpp): fused where the forward fused;
        // else looped where the looped kernel gives ∂L/∂γ, ∂L/∂β too (on a CPU-emulated adapter one
        // owner is enough), else split.
        const plan::BackwardPlan bp = plan::plan_backward(layout, ref.spec(), plan, 1, n_.plan_device());
        const bool looped = bp.looped;
        // Where ∂L/∂γ, ∂L/∂β come from: the statistics' partials, the rows' partials or the γ/β pass.
        ++grad_paths_[bp.params_from_stats ? "params from stats" : bp.rows ? "params from rows" : "params pass"];
        const std::string want = plan.from_running ? "eval" : plan.fused ? "fused" : looped ? "looped" : "split";
        const reference::GradReference gref = reference::reference_backward(ref, dy);
        grad_run(group, ref, dy, gref, want);
        if (plan.fused || plan.from_running) return;
        const webgpu::ScopedGradPath other(n_, looped ? plan::ForcedPath::Split : plan::ForcedPath::Looped);
        const bool other_looped = plan::plan_backward(layout, ref.spec(), plan, 1, n_.plan_device()).looped;
        grad_run(group, ref, dy, gref, other_looped ? "looped" : "split");
    }
    // One backward run against the reference, on path `want`.
    void grad_run(const std::string& group, const reference::Reference& ref, const core::Tensor& dy,
                  const reference::GradReference& gref, const std::string& want) {
        const core::GradResult g = b_.run(dy);
        ++grad_paths_["path " + std::string(b_.last_path())];
        if (b_.last_path() != want)
            fail(group, ref.x().shape, ref.spec(), "backward took " + std::string(b_.last_path()) + ", not " + want);
        const double err = grad_error(g, gref);
        if (!(err <= 1e-4)) {
            std::ostringstream os;
            os << "backward (" << want << ") error " << err << " > 1e-4";
            fail(group, ref.x().shape, ref.spec(), os.str());
        }
    }

    // One case of tests/kernel_cases.hpp (the Vulkan suite runs the same table): the gradients against
    // the float64 reference and, on a CPU-emulated adapter (SwiftShader), the path the table names;
    // then, but for eval, with the looped kernel forced (looped) and kept off (fused or split).
    void grad_case(const test::GradCase& c, std::uint64_t seed) {
        try {
            const core::Tensor x = make_tensor(c.shape, core::Init::Randn, seed),
                               dy = make_tensor(c.shape, core::Init::Randn, seed + 1);
            n_.run(x, c.spec, c.params);
            const reference::GradReference gref =
                reference::reference_backward(reference::Reference(x, c.spec, c.params), dy);
            for (plan::ForcedPath forced :
                 {plan::ForcedPath::Auto, plan::ForcedPath::Looped, plan::ForcedPath::Split}) {
                const webgpu::ScopedGradPath path(n_, forced);
                const core::GradResult g = b_.run(dy);
                const std::string took = b_.last_path();
                const bool eval = took == "eval", fused = n_.last_run()->plan.fused;
                const plan::BackwardPlan planned =
                    plan::plan_backward(n_.last_run()->layout, c.spec, n_.last_run()->plan, 1, n_.plan_device());
                const std::string want = forced == plan::ForcedPath::Auto ? c.webgpu
                                         : eval                           ? "eval"
                                         : planned.looped                 ? "looped"
                                         : fused                          ? "fused"
                                                                          : "split";
                if (forced == plan::ForcedPath::Auto) ++grad_paths_["table " + took];
                const double err = grad_error(g, gref);
                if (!(err <= 1e-4))
                    fail("case table", c.shape, c.spec,
                         c.name + " (" + took + "): backward error " + std::to_string(err) + " > 1e-4");
                if ((forced != plan::ForcedPath::Auto || n_.context().cpu_emulated()) && took != want)
                    fail("case table", c.shape, c.spec, c.name + ": backward took " + took + ", not " + want);
                if (eval) break;
            }
        } catch (const std::exception& ex) {
            fail("case table", c.shape, c.spec, c.name + " threw: " + ex.what());
        }
    }

    void fail(const std::string& group, const core::Shape4& s, const core::NormSpec& spec, const std::string& what) {
        failures_.push_back({{"group", group}, {"case", describe(s, spec)}, {"what", what}});
    }

    // tests/gpu/test_random_vs_reference.cpp's check_random.
    // The backward runs on the shapes of at most grad_max_numel elements (the float64 references
    // of larger ones would double the suite's time).
    void random(const std::string& group, const std::vector<std::int64_t>& sizes, int cases, std::uint64_t seed,
                std::int64_t max_numel, int rank = 4, std::int64_t grad_max_numel = 1 << 16) {
        std::mt19937_64 rng(seed);
        int done = 0;
        while (done < cases) {
            const core::Shape4 s = random_shape(rank, sizes, rng);
            if (s.numel() > max_numel) continue;
            for (core::Method m : kMethods) {
                auto [spec, params] = random_config(m, s, rng);
                if (!valid(m, s, spec)) continue;
                core::Tensor x = make_tensor(s, core::Init::Randn, rng());
                check(group, x, spec, params, {}, false, s.numel() <= grad_max_numel);
            }
            ++done;
        }
    }

    nlohmann::json report(double ms) const {
        nlohmann::json j;
        j["cases"] = cases_;
        j["failures"] = failures_;
        j["paths"] = paths_;
        j["grad_cases"] = grad_cases_;
        j["grad_paths"] = grad_paths_;
        j["group_ms"] = group_ms_;
        j["methods"] = methods_;
        j["pipelines"] = n_.pipelines_built();
        j["device"] = n_.context().device_name();
        j["ms"] = ms;
        return j;
    }

    webgpu::WgpuNormalizer& normalizer() { return n_; }

private:
    webgpu::WgpuNormalizer& n_;
    webgpu::WgpuBackward& b_;
    int cases_ = 0, grad_cases_ = 0;
    nlohmann::json failures_ = nlohmann::json::array();
    std::map<std::string, int> paths_, methods_, grad_paths_;
    std::map<std::string, double> group_ms_;
};

// Every method and flag on shapes whose runs are not multiples of 4, and on one that is.
void every_flag(Suite& t) {
    for (core::Shape4 s : {core::Shape4{3, 6, 5, 7}, core::Shape4{2, 4, 8, 8}}) {
        std::mt19937_64 rng(7);
        core::Tensor x = make_tensor(s, core::Init::Randn, 11);
        auto params_for = [&](const core::NormSpec& spec, bool running) {
            core::NormParams p;
            const core::StatLayout l = core::make_layout(spec, s);
            std::uniform_real_distribution<double> u(-2, 2);
            if (spec.has_weight())
                for (std::int64_t i = 0; i < l.param_count; ++i) p.weight.push_back(static_cast<float>(u(rng)));
            if (spec.has_bias())
                for (std::int64_t i = 0; i < l.param_count; ++i) p.bias.push_back(static_cast<float>(u(rng)));
            if (running) {
                for (std::int64_t c = 0; c < s.c; ++c) {
                    p.running_mean.push_back(static_cast<float>(u(rng) / 2));
                    p.running_var.push_back(static_cast<float>(1.0 + u(rng) / 4));
                }
                p.num_batches_tracked = 3;
            }
            return p;
        };
        for (core::Mode mode : {core::Mode::Train, core::Mode::Eval})
            for (bool track : {true, false})
                for (bool cumulative : {false, true})
                    for (bool affine : {true, false})
                        for (bool running : {false, true}) {
                            core::NormSpec spec = core::default_spec(core::Method::Batch);
                            spec.mode = mode;
                            spec.track_running_stats = track;
                            if (cumulative) spec.momentum.reset();
                            spec.affine = affine;
                            t.check("batch flags", x, spec, params_for(spec, running));
                        }
        for (const auto& ns : {std::vector<std::int64_t>{s.w}, {s.h, s.w}, {s.c, s.h, s.w}, {}})
            for (bool affine : {true, false})
                for (bool bias : {true, false})
                    for (core::Method m : {core::Method::Layer, core::Method::Rms}) {
                        if (m == core::Method::Rms && !bias) continue;
                        core::NormSpec spec = core::default_spec(m);
                        spec.normalized_shape = ns;
                        spec.affine = affine;
                        spec.bias = bias;
                        t.check(m == core::Method::Layer ? "layer flags" : "rms flags", x, spec,
                                params_for(spec, false));
                    }
        for (bool affine : {false, true}) {
            core::NormSpec spec = core::default_spec(core::Method::Instance);
            spec.affine = affine;
            t.check("instance flags", x, spec, params_for(spec, false));
            spec.eps = 1e-3;
            t.check("instance flags", x, spec, params_for(spec, false));
        }
        for (std::int64_t g : session::divisors(s.c))
            for (bool affine : {true, false}) {
                core::NormSpec spec = core::default_spec(core::Method::Group);
                spec.groups = g;
                spec.affine = affine;
                t.check("group flags", x, spec, params_for(spec, false));
            }
    }
}

// tests/gpu/test_numerics.cpp: far from 0, an outlying first element, non-finite input, constant input.
void numerics(Suite& t) {
    for (core::Shape4 s : {core::Shape4{4, 8, 16, 16}, core::Shape4{2, 4, 96, 96}}) {  // fused and split statistics
        core::Tensor x = make_tensor(s, core::Init::Randn, 505);
        for (auto& v : x.data) v = 1e4f + 0.1f * v;
        core::Tensor outlier = make_tensor(s, core::Init::Randn, 506);  // K, the first element, far from the rest
        outlier.data[0] = 1e4f;
        for (core::Method m : kMethods) {
            core::NormSpec spec = core::default_spec(m);
            if (m == core::Method::Group) spec.groups = 2;
            Tolerance tol;
            tol.y = 1e-3;
            tol.var = 1e-6;
            t.check("1e4 + 0.1 randn", x, spec, {}, tol, false, false);
            tol.mean = 2e-3;  // μ = K + mean(x − K) in float: about |K − μ|·2⁻²⁴ times a few
            tol.running = 2e-4;
            t.check("outlier first element", outlier, spec, {}, tol, false, false);
        }
    }
    {
        core::Tensor x = make_tensor({2, 4, 3, 3}, core::Init::Randn, 606);
        x.data[5] = std::numeric_limits<float>::quiet_NaN();
        x.data[static_cast<std::size_t>(x.offset(1, 3, 2, 2))] = std::numeric_limits<float>::infinity();
        Tolerance tol;
        tol.y = 1e-5;
        for (core::Method m : {core::Method::Instance, core::Method::Batch, core::Method::Layer, core::Method::Rms})
            t.check("NaN and Inf", x, core::default_spec(m), {}, tol, /*y_only=*/true, /*grad=*/false);
        core::Tensor big = make_tensor({1, 2, 96, 96}, core::Init::Randn, 607);  // split statistics
        big.data[100] = std::numeric_limits<float>::quiet_NaN();
        big.data[9216 + 7] = -std::numeric_limits<float>::infinity();
        for (core::Method m : {core::Method::Instance, core::Method::Rms})
            t.check("NaN and Inf, split", big, core::default_spec(m), {}, tol, /*y_only=*/true, /*grad=*/false);
    }
    {
        core::Tensor x = make_tensor({2, 3, 4, 4}, core::Init::Constant, 0, 3.25f);
        for (core::Method m : {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group}) {
            core::NormSpec spec = core::default_spec(m);
            spec.affine = true;
            if (m == core::Method::Group) spec.groups = 3;
            core::NormParams p;
            const core::StatLayout layout = core::make_layout(spec, x.shape);
            p.weight.assign(static_cast<std::size_t>(layout.param_count), 2.0f);
            p.bias.assign(static_cast<std::size_t>(layout.param_count), 0.75f);
            Tolerance exact{0, 0, 0, 1e-5};
            t.check("constant input gives beta", x, spec, p, exact, false, false);
        }
    }
}

// The comparison itself must see a wrong result: the GPU's y for eps = 1e-5 against the
// Reference for eps = 0.5 differs by far more than the tolerance.
nlohmann::json negative_control(webgpu::WgpuNormalizer& n) {
    core::Tensor x = make_tensor({2, 3, 5, 5}, core::Init::Randn, 808);
    core::NormSpec spec = core::default_spec(core::Method::Layer);
    const core::NormResult r = n.run(x, spec, {});
    core::NormSpec other = spec;
    other.eps = 0.5;
    const double err = reference::Reference(x, other, {}).max_abs_error(r.y.data);
    return {{"y_error_against_a_wrong_reference", err}, {"detected", err > Tolerance{}.y}};
}

// The same for the backward: the GPU's gradients for dy against the reference's for another dy.
nlohmann::json backward_negative_control(webgpu::WgpuNormalizer& n, webgpu::WgpuBackward& b) {
    core::Tensor x = make_tensor({2, 3, 5, 5}, core::Init::Randn, 809);
    core::NormSpec spec = core::default_spec(core::Method::Group);
    spec.groups = 3;
    n.run(x, spec, {});
    const core::GradResult g = b.run(make_tensor(x.shape, core::Init::Randn, 810));
    const double err = grad_error(g, reference::reference_backward(reference::Reference(x, spec, {}),
                                                                   make_tensor(x.shape, core::Init::Randn, 811)));
    return {{"grad_error_against_another_dy", err}, {"detected", err > 1e-4}};
}

}  // namespace

std::string run_kernel_tests(webgpu::WgpuBackend& backend) {
    webgpu::WgpuNormalizer& normalizer = backend.normalizer();
    const auto t0 = std::chrono::steady_clock::now();
    webgpu::WgpuBackward backward(normalizer);
    Suite t(normalizer, backward);
    every_flag(t);
    t.random("random small", {1, 2, 3, 5, 7, 8, 13}, 40, 101, 1 << 16);
    t.random("random 3-D", {1, 2, 3, 5, 8, 13, 64, 97}, 30, 404, 1 << 16, 3);
    t.random("random 2-D", {1, 2, 3, 5, 8, 13, 64, 97, 257}, 30, 505, 1 << 16, 2);
    t.random("random 5-D", {1, 2, 3, 5, 7, 8}, 30, 606, 1 << 16, 5);
    t.random("random medium", {1, 3, 16, 31, 64, 97}, 12, 202, 1 << 20, 4, 1 << 16);

    {
        // One statistic of 2^17+ elements per method: the split and looped paths (forward only:
        // the backward's chunked reductions run on the random shapes).
        core::Tensor x = make_tensor({2, 4, 384, 384}, core::Init::Randn, 303);
        for (core::Method m : kMethods) {
            core::NormSpec spec = core::default_spec(m);
            if (m == core::Method::Group) spec.groups = 2;
            t.check("large statistics", x, spec, {}, {}, false, /*grad=*/false);
        }
    }
    numerics(t);
    std::uint64_t seed = 3100;
    for (const test::GradCase& c : test::grad_cases()) t.grad_case(c, seed += 2);
    nlohmann::json j = t.report(0);
    j["negative_control"] = negative_control(normalizer);
    j["backward_negative_control"] = backward_negative_control(normalizer, backward);
    j["histogram"] = run_histogram_tests(normalizer);
    j["heatmap"] = run_heatmap_tests(normalizer);
    j["session"] = run_session_tests(backend);
    j["sync"] = run_sync_tests(backend);
    j["ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return j.dump(1);
}

}  // namespace normlab::web
