// Float64 reference: each method's statistics by explicit loops over its reduced axes.
#include "normlab/reference.hpp"

#include "normlab/error.hpp"

#include <cmath>
#include <functional>
#include <limits>

namespace normlab {
namespace {

struct Acc {
    std::vector<std::int64_t> members;  // flat offsets of the elements of one statistic
};

// The member offsets of every statistic, enumerated from the method's definition.
std::vector<Acc> groups_by_definition(const NormSpec& spec, const Shape4& s) {
    std::vector<Acc> g;
    auto off = [&](std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
        return ((n * s.c + c) * s.h + h) * s.w + w;
    };
    switch (spec.method) {
        case Method::Batch:  // per channel over N, H, W
            for (std::int64_t c = 0; c < s.c; ++c) {
                Acc a;
                for (std::int64_t n = 0; n < s.n; ++n)
                    for (std::int64_t h = 0; h < s.h; ++h)
                        for (std::int64_t w = 0; w < s.w; ++w) a.members.push_back(off(n, c, h, w));
                g.push_back(std::move(a));
            }
            break;
        case Method::Instance:  // per (n, c) over H, W
            for (std::int64_t n = 0; n < s.n; ++n)
                for (std::int64_t c = 0; c < s.c; ++c) {
                    Acc a;
                    for (std::int64_t h = 0; h < s.h; ++h)
                        for (std::int64_t w = 0; w < s.w; ++w) a.members.push_back(off(n, c, h, w));
                    g.push_back(std::move(a));
                }
            break;
        case Method::Group: {  // per (n, g) over the C/G channels of group g, H, W
            const std::int64_t cpg = s.c / spec.groups;
            for (std::int64_t n = 0; n < s.n; ++n)
                for (std::int64_t gi = 0; gi < spec.groups; ++gi) {
                    Acc a;
                    for (std::int64_t c = gi * cpg; c < (gi + 1) * cpg; ++c)
                        for (std::int64_t h = 0; h < s.h; ++h)
                            for (std::int64_t w = 0; w < s.w; ++w) a.members.push_back(off(n, c, h, w));
                    g.push_back(std::move(a));
                }
            break;
        }
        case Method::Layer:
        case Method::Rms: {  // per index of the leading dims over the trailing normalized_shape dims
            const std::size_t k = spec.effective_normalized_shape(s).size();
            auto d = s.dims();
            std::int64_t lead = 1;
            for (std::size_t i = 0; i < 4 - k; ++i) lead *= d[i];
            std::int64_t inner = s.numel() / lead;
            for (std::int64_t l = 0; l < lead; ++l) {
                Acc a;
                for (std::int64_t e = 0; e < inner; ++e) a.members.push_back(l * inner + e);
                g.push_back(std::move(a));
            }
            break;
        }
    }
    return g;
}

}  // namespace

ReferenceResult reference_normalize(const Tensor& x, const NormSpec& spec, const NormParams& params) {
    StatLayout layout = make_layout(spec, x.shape);
    params.validate(spec, layout);
    ReferenceResult out;
    NormResult& r = out.stats;
    r.layout = layout;
    r.nonfinite_inputs = count_nonfinite(x.data);
    const double eps = spec.effective_eps();
    const bool rms = spec.method == Method::Rms;
    const auto groups = groups_by_definition(spec, x.shape);
    out.y.assign(x.data.size(), 0.0);

    std::vector<double> shift(groups.size(), 0.0);
    for (std::size_t s = 0; s < groups.size(); ++s) {
        double n = static_cast<double>(groups[s].members.size());
        double sum = 0, sq = 0;
        for (auto i : groups[s].members) {
            double v = x.data[static_cast<std::size_t>(i)];
            sum += v;
            sq += v * v;
        }
        if (rms) {
            r.mean_square.push_back(sq / n);
            r.rstd.push_back(1.0 / std::sqrt(sq / n + eps));
            continue;
        }
        double mean = sum / n, m2 = 0;
        for (auto i : groups[s].members) {
            double d = x.data[static_cast<std::size_t>(i)] - mean;
            m2 += d * d;
        }
        r.mean.push_back(mean);
        r.var.push_back(m2 / n);
    }
    if (!rms) {
        if (!spec.uses_batch_stats()) {
            r.stats_from_running = true;
            for (std::size_t c = 0; c < groups.size(); ++c) {
                r.mean[c] = params.running_mean.empty() ? 0.0 : params.running_mean[c];
                r.var[c] = params.running_var.empty() ? 1.0 : params.running_var[c];
            }
        }
        for (double v : r.var) r.rstd.push_back(1.0 / std::sqrt(v + eps));
    }
    for (std::size_t s = 0; s < groups.size(); ++s)
        for (auto i : groups[s].members) {
            auto u = static_cast<std::size_t>(i);
            double xhat = rms ? x.data[u] * r.rstd[s] : (x.data[u] - r.mean[s]) * r.rstd[s];
            auto p = static_cast<std::size_t>(layout.param_of(i));
            if (spec.has_weight()) xhat *= params.weight.empty() ? 1.0 : params.weight[p];
            if (spec.has_bias()) xhat += params.bias.empty() ? 0.0 : params.bias[p];
            out.y[u] = xhat;
        }
    update_running_stats(spec, params, r);
    return out;
}

double max_abs_error(const std::vector<float>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        double x = a[i], y = b[i];
        if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) != std::isnan(y)) return std::numeric_limits<double>::infinity();
            continue;
        }
        if (std::isinf(x) || std::isinf(y)) {
            if (x != y) return std::numeric_limits<double>::infinity();
            continue;
        }
        worst = std::max(worst, std::abs(x - y));
    }
    return worst;
}

}  // namespace normlab
