#include "support.hpp"

#include <cmath>
#include <memory>
#include <sstream>

namespace normlab::test {

namespace {
std::unique_ptr<gpu::VulkanContext> g_ctx;
std::unique_ptr<ops::Normalizer> g_norm;
std::unique_ptr<ops::Backward> g_backward;
}  // namespace

gpu::VulkanContext& context() {
    if (!g_ctx) g_ctx = std::make_unique<gpu::VulkanContext>();
    return *g_ctx;
}
ops::Normalizer& normalizer() {
    if (!g_norm) g_norm = std::make_unique<ops::Normalizer>(context());
    return *g_norm;
}
ops::Backward& backward() {
    if (!g_backward) g_backward = std::make_unique<ops::Backward>(normalizer());
    return *g_backward;
}
bool context_created() { return g_ctx != nullptr; }
void shutdown() {
    g_backward.reset();
    g_norm.reset();
    g_ctx.reset();
}

Compared compare(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params) {
    Compared c;
    c.gpu = normalizer().run(x, spec, params);
    c.ref = reference::reference_normalize(x, spec, params);
    c.y_err = reference::max_abs_error(c.gpu.y.data, c.ref.y);
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
    if (spec.method == core::Method::Rms) {
        c.mean_err = maxdiff(c.gpu.mean_square, c.ref.stats.mean_square, true);
    } else {
        c.mean_err = maxdiff(c.gpu.mean, c.ref.stats.mean, false);
        c.var_err = maxdiff(c.gpu.var, c.ref.stats.var, true);
    }
    c.running_err = std::max(maxdiff(c.gpu.running_mean, c.ref.stats.running_mean, false),
                             maxdiff(c.gpu.running_var, c.ref.stats.running_var, true));
    return c;
}

}  // namespace normlab::test
