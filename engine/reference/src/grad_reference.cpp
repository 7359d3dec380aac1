// Float64 backward by explicit loops: per statistic Σg and Σg·x̂, then every element's ∂L/∂x;
// ∂L/∂γ and ∂L/∂β summed per γ/β index. Statistics and indices come from Reference (by definition).
#include "normlab/core/error.hpp"
#include "normlab/reference/grad_reference.hpp"

#include <cmath>
#include <limits>

namespace normlab::reference {

GradReference reference_backward(const Reference& ref, const core::Tensor& dy) {
    const core::Tensor& x = ref.x();
    core::check_grad_shape(x.shape, dy.shape.dims());
    const core::NormSpec& spec = ref.spec();
    const core::NormParams& params = ref.params();
    const core::NormResult& st = ref.stats();
    const bool rms = spec.method == core::Method::Rms;
    const bool eval = st.stats_from_running;
    const auto S = static_cast<std::size_t>(st.layout.stat_count);
    const auto P = static_cast<std::size_t>(st.layout.param_count);
    const std::size_t numel = x.data.size();

    auto gamma = [&](std::size_t p) {
        return spec.has_weight() && !params.weight.empty() ? static_cast<double>(params.weight[p]) : 1.0;
    };
    auto xhat = [&](std::size_t i, std::size_t s) {
        const double v = x.data[i];
        return rms ? v * st.rstd[s] : (v - st.mean[s]) * st.rstd[s];
    };
    // 1. Per statistic: the count, Σ g and Σ g·x̂.
    std::vector<double> n(S, 0.0), sum_g(S, 0.0), sum_gx(S, 0.0);
    for (std::size_t i = 0; i < numel; ++i) {
        const auto s = static_cast<std::size_t>(ref.stat_of(static_cast<std::int64_t>(i)));
        const double g = dy.data[i] * gamma(static_cast<std::size_t>(ref.param_of(static_cast<std::int64_t>(i))));
        n[s] += 1;
        sum_g[s] += g;
        sum_gx[s] += g * xhat(i, s);
    }
    // 2. Every element's ∂L/∂x; ∂L/∂γ and ∂L/∂β per parameter index.
    GradReference out;
    out.dx.resize(numel);
    std::vector<double> dw(P, 0.0), db(P, 0.0);
    for (std::size_t i = 0; i < numel; ++i) {
        const auto s = static_cast<std::size_t>(ref.stat_of(static_cast<std::int64_t>(i)));
        const auto p = static_cast<std::size_t>(ref.param_of(static_cast<std::int64_t>(i)));
        const double g = dy.data[i] * gamma(p), xh = xhat(i, s);
        if (eval)
            out.dx[i] = st.rstd[s] * g;
        else if (rms)
            out.dx[i] = st.rstd[s] * (g - xh * sum_gx[s] / n[s]);
        else
            out.dx[i] = st.rstd[s] * (g - sum_g[s] / n[s] - xh * sum_gx[s] / n[s]);
        dw[p] += dy.data[i] * xh;
        db[p] += dy.data[i];
    }
    if (spec.has_weight()) out.dweight = std::move(dw);
    if (spec.has_bias()) out.dbias = std::move(db);
    return out;
}

namespace {
double abs_diff(double a, double b) {
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) == std::isnan(b) ? 0.0 : std::numeric_limits<double>::infinity();
    if (std::isinf(a) || std::isinf(b)) return a == b ? 0.0 : std::numeric_limits<double>::infinity();
    return std::abs(a - b);
}
double worst(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
    double w = 0;
    for (std::size_t i = 0; i < a.size(); ++i) w = std::max(w, abs_diff(a[i], b[i]));
    return w;
}
}  // namespace

double grad_max_abs_error(const core::GradResult& gpu, const GradReference& ref) {
    double w = max_abs_error(gpu.dx.data, ref.dx);
    w = std::max(w, worst(gpu.dweight, ref.dweight));
    return std::max(w, worst(gpu.dbias, ref.dbias));
}

}  // namespace normlab::reference
