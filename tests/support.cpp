#include "support.hpp"

#include "normlab/state_edits.hpp"

#include <cmath>
#include <memory>
#include <sstream>

namespace normlab::test {

namespace {
std::unique_ptr<VulkanContext> g_ctx;
std::unique_ptr<Normalizer> g_norm;
std::unique_ptr<Backward> g_backward;
}  // namespace

VulkanContext& context() {
    if (!g_ctx) g_ctx = std::make_unique<VulkanContext>();
    return *g_ctx;
}
Normalizer& normalizer() {
    if (!g_norm) g_norm = std::make_unique<Normalizer>(context());
    return *g_norm;
}
Backward& backward() {
    if (!g_backward) g_backward = std::make_unique<Backward>(normalizer());
    return *g_backward;
}
bool context_created() { return g_ctx != nullptr; }
void shutdown() {
    g_backward.reset();
    g_norm.reset();
    g_ctx.reset();
}

Compared compare(const Tensor& x, const NormSpec& spec, const NormParams& params) {
    Compared c;
    c.gpu = normalizer().run(x, spec, params);
    c.ref = reference_normalize(x, spec, params);
    c.y_err = max_abs_error(c.gpu.y.data, c.ref.y);
    auto maxdiff = [](const std::vector<double>& a, const std::vector<double>& b, bool relative) -> double {
        if (a.size() != b.size()) return INFINITY;
        double w = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (std::isnan(a[i]) && std::isnan(b[i])) continue;
            double d = std::abs(a[i] - b[i]);
            if (relative) d /= std::max(1.0, std::abs(b[i]));
            w = std::max(w, std::isnan(d) ? INFINITY : d);
        }
        return w;
    };
    if (spec.method == Method::Rms) {
        c.mean_err = maxdiff(c.gpu.mean_square, c.ref.stats.mean_square, true);
    } else {
        c.mean_err = maxdiff(c.gpu.mean, c.ref.stats.mean, false);
        c.var_err = maxdiff(c.gpu.var, c.ref.stats.var, true);
    }
    c.running_err = std::max(maxdiff(c.gpu.running_mean, c.ref.stats.running_mean, false),
                             maxdiff(c.gpu.running_var, c.ref.stats.running_var, true));
    return c;
}

std::string describe(const Shape4& s, const NormSpec& spec) {
    std::ostringstream os;
    os << method_name(spec.method) << " " << s.str();
    if (spec.method == Method::Group) os << " G=" << spec.groups;
    if (!spec.normalized_shape.empty()) os << " normalized_shape=" << dims_str(spec.normalized_shape);
    os << " affine=" << spec.affine << " bias=" << spec.bias << " mode=" << mode_name(spec.mode)
       << " momentum=" << (spec.momentum ? std::to_string(*spec.momentum) : "cumulative")
       << " eps=" << spec.effective_eps();
    return os.str();
}

// A random valid configuration for shape s and method m, with random flags and parameters.
std::pair<NormSpec, NormParams> random_config(Method m, const Shape4& s, std::mt19937_64& rng) {
    NormSpec spec = default_spec(m);
    NormParams p;
    auto coin = [&]() { return (rng() & 1) != 0; };
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    if (coin()) spec.eps = uniform(1e-6, 1e-2);
    spec.affine = m == Method::Instance ? coin() : (rng() % 4 != 0);
    if (m == Method::Group) {
        auto d = divisors(s.c);
        spec.groups = d[rng() % d.size()];
    }
    if (m == Method::Layer || m == Method::Rms) {
        switch (rng() % (s.rank == 3 ? 2 : 3)) {  // 3-D: [D] or [L, D]
            case 0: spec.normalized_shape = {s.w}; break;
            case 1:
                if (s.rank == 3)
                    spec.normalized_shape = {s.c, s.w};
                else
                    spec.normalized_shape = {s.h, s.w};
                break;
            default: spec.normalized_shape = {s.c, s.h, s.w}; break;
        }
        if (m == Method::Layer) spec.bias = coin();
    }
    if (m == Method::Batch) {
        spec.mode = coin() ? Mode::Train : Mode::Eval;
        if (coin())
            spec.momentum.reset();
        else
            spec.momentum = uniform(0.0, 1.0);
        if (rng() % 5 == 0) spec.track_running_stats = false;
        if (coin()) {
            for (std::int64_t c = 0; c < s.c; ++c) {
                p.running_mean.push_back(static_cast<float>(uniform(-1, 1)));
                p.running_var.push_back(static_cast<float>(uniform(0.2, 3)));
            }
            p.num_batches_tracked = static_cast<std::int64_t>(rng() % 10);
        }
    }
    StatLayout layout = make_layout(spec, s);
    if (spec.has_weight() && coin())
        for (std::int64_t i = 0; i < layout.param_count; ++i) p.weight.push_back(static_cast<float>(uniform(-2, 2)));
    if (spec.has_bias() && coin())
        for (std::int64_t i = 0; i < layout.param_count; ++i) p.bias.push_back(static_cast<float>(uniform(-2, 2)));
    return {spec, p};
}

bool valid(Method m, const Shape4& s, const NormSpec& spec) {
    if (m == Method::Batch && spec.mode == Mode::Train && s.n * s.h * s.w == 1) return false;
    if (m == Method::Instance && s.h * s.w == 1) return false;
    return true;
}

}  // namespace normlab::test
