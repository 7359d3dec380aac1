// Float64 reference: each method's statistics by explicit loops over its reduced axes.
#include "normlab/reference/reference.hpp"

#include "normlab/core/error.hpp"

#include <cmath>
#include <limits>

namespace normlab::reference {
namespace {

// Calls fn(statistic, offset) for every element, enumerating each method's statistics from
// its definition: the loops below are the reduction axes of the method.
template <typename Fn>
void for_each_member(const core::NormSpec& spec, const core::Shape4& s, Fn&& fn) {
    auto off = [&](std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
        return ((n * s.c + c) * s.h + h) * s.w + w;
    };
    switch (spec.method) {
        case core::Method::Batch:  // per channel c over N, H, W
            for (std::int64_t c = 0; c < s.c; ++c)
                for (std::int64_t n = 0; n < s.n; ++n)
                    for (std::int64_t h = 0; h < s.h; ++h)
                        for (std::int64_t w = 0; w < s.w; ++w) fn(c, off(n, c, h, w));
            break;
        case core::Method::Instance:  // per (n, c) over H, W
            if (s.rank == 2) {        // InstanceNorm1d's unbatched (C, L): per row over its columns
                for (std::int64_t n = 0; n < s.n; ++n)
                    for (std::int64_t c = 0; c < s.c; ++c) fn(n, off(n, c, 0, 0));
                break;
            }
            for (std::int64_t n = 0; n < s.n; ++n)
                for (std::int64_t c = 0; c < s.c; ++c)
                    for (std::int64_t h = 0; h < s.h; ++h)
                        for (std::int64_t w = 0; w < s.w; ++w) fn(n * s.c + c, off(n, c, h, w));
            break;
        case core::Method::Group: {  // per (n, g) over the C/G channels of group g, H, W
            const std::int64_t cpg = s.c / spec.groups;
            for (std::int64_t n = 0; n < s.n; ++n)
                for (std::int64_t g = 0; g < spec.groups; ++g)
                    for (std::int64_t c = g * cpg; c < (g + 1) * cpg; ++c)
                        for (std::int64_t h = 0; h < s.h; ++h)
                            for (std::int64_t w = 0; w < s.w; ++w) fn(n * spec.groups + g, off(n, c, h, w));
            break;
        }
        case core::Method::Layer:
        case core::Method::Rms: {  // per index of the leading dims over the trailing normalized_shape dims
            const std::size_t k = spec.effective_normalized_shape(s).size();
            auto d = s.dims();
            std::int64_t lead = 1;
            for (std::size_t i = 0; i < d.size() - k; ++i) lead *= d[i];
            const std::int64_t inner = s.numel() / lead;
            for (std::int64_t l = 0; l < lead; ++l)
                for (std::int64_t e = 0; e < inner; ++e) fn(l, l * inner + e);
            break;
        }
    }
}

// γ/β index by definition: the channel (batch/instance/group) or the position inside
// normalized_shape (layer/rms).
std::int64_t param_index(const core::NormSpec& spec, const core::Shape4& s, std::int64_t offset) {
    if (spec.method == core::Method::Layer || spec.method == core::Method::Rms) {
        std::int64_t count = 1;
        for (auto d : spec.effective_normalized_shape(s)) count *= d;
        return offset % count;
    }
    if (spec.method == core::Method::Instance && s.rank == 2) return offset / s.c;  // γ per row of (C, L)
    return (offset / s.hw()) % s.c;
}

}  // namespace

Reference::Reference(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params)
    : x_(&x), spec_(spec), params_(params) {
    core::StatLayout layout = core::make_layout(spec, x.shape);
    params.validate(spec, layout);
    core::NormResult& r = stats_;
    r.layout = layout;
    r.nonfinite_inputs = core::count_nonfinite(x.data);
    const double eps = spec.effective_eps();
    const bool rms = spec.method == core::Method::Rms;
    const auto S = static_cast<std::size_t>(layout.stat_count);
    stat_of_.assign(x.data.size(), -1);
    std::vector<double> sum(S, 0.0), sq(S, 0.0), count(S, 0.0);
    for_each_member(spec, x.shape, [&](std::int64_t s, std::int64_t i) {
        const double v = x.data[static_cast<std::size_t>(i)];
        stat_of_[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(s);
        sum[static_cast<std::size_t>(s)] += v;
        sq[static_cast<std::size_t>(s)] += v * v;
        count[static_cast<std::size_t>(s)] += 1;
    });
    if (rms) {
        for (std::size_t s = 0; s < S; ++s) {
            r.mean_square.push_back(sq[s] / count[s]);
            r.rstd.push_back(1.0 / std::sqrt(sq[s] / count[s] + eps));
        }
    } else {
        r.mean.resize(S);
        r.var.assign(S, 0.0);
        for (std::size_t s = 0; s < S; ++s) r.mean[s] = sum[s] / count[s];
        // Second pass: exact deviations from the float64 mean.
        for (std::size_t i = 0; i < x.data.size(); ++i) {
            auto s = static_cast<std::size_t>(stat_of_[i]);
            const double d = x.data[i] - r.mean[s];
            r.var[s] += d * d;
        }
        for (std::size_t s = 0; s < S; ++s) r.var[s] /= count[s];
        if (!spec.uses_batch_stats()) {
            r.stats_from_running = true;
            for (std::size_t c = 0; c < S; ++c) {
                r.mean[c] = params.running_mean.empty() ? 0.0 : params.running_mean[c];
                r.var[c] = params.running_var.empty() ? 1.0 : params.running_var[c];
            }
        }
        for (double v : r.var) r.rstd.push_back(1.0 / std::sqrt(v + eps));
    }
    core::update_running_stats(spec, params, r);
}

double Reference::y(std::int64_t i) const {
    const auto u = static_cast<std::size_t>(i);
    const auto s = static_cast<std::size_t>(stat_of_[u]);
    const double x = x_->data[u];
    double out = spec_.method == core::Method::Rms ? x * stats_.rstd[s] : (x - stats_.mean[s]) * stats_.rstd[s];
    const auto p = static_cast<std::size_t>(param_index(spec_, x_->shape, i));
    if (spec_.has_weight() && !params_.weight.empty()) out *= params_.weight[p];
    if (spec_.has_bias() && !params_.bias.empty()) out += params_.bias[p];
    return out;
}

std::int64_t Reference::param_of(std::int64_t offset) const { return param_index(spec_, x_->shape, offset); }

std::vector<double> Reference::y_all() const {
    std::vector<double> out(x_->data.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = y(static_cast<std::int64_t>(i));
    return out;
}

namespace {
double abs_diff(double x, double y) {
    if (std::isnan(x) || std::isnan(y))
        return std::isnan(x) == std::isnan(y) ? 0.0 : std::numeric_limits<double>::infinity();
    if (std::isinf(x) || std::isinf(y)) return x == y ? 0.0 : std::numeric_limits<double>::infinity();
    return std::abs(x - y);
}
}  // namespace

double Reference::max_abs_error(const std::vector<float>& gpu_y) const {
    if (gpu_y.size() != x_->data.size()) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (std::size_t i = 0; i < gpu_y.size(); ++i)
        worst = std::max(worst, abs_diff(gpu_y[i], y(static_cast<std::int64_t>(i))));
    return worst;
}

ReferenceResult reference_normalize(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params) {
    Reference ref(x, spec, params);
    return {ref.stats(), ref.y_all()};
}

double max_abs_error(const std::vector<float>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, abs_diff(a[i], b[i]));
    return worst;
}

}  // namespace normlab::reference
