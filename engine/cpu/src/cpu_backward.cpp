#include "normlab/cpu/cpu_backward.hpp"

#include "normlab/plan/backend_helpers.hpp"
#include "normlab/core/error.hpp"
#include "normlab/plan/param_layout.hpp"

#include <chrono>
#include <string>

namespace normlab::cpu {
namespace {

// x̂ of x under statistic st = (K, mean of x − K, var, rstd); RMS: x·rstd (grad_common's grad_xhat).
float xhat(float x, const float* st, bool rms) { return rms ? x * st[3] : ((x - st[0]) - st[1]) * st[3]; }

// Every element e (flat offset i) of group g of layout l: f(e, i).
template <class F>
void each_element(const core::StatLayout& l, std::int64_t g, F&& f) {
    const std::int64_t base = g * l.stat_stride;
    for (std::int64_t j = 0; j < l.segments; ++j)
        for (std::int64_t k = 0; k < l.segment_len; ++k) f(j * l.segment_len + k, base + j * l.segment_stride + k);
}

}  // namespace

core::GradResult CpuBackward::run(const core::Tensor& dy) {
    if (!n_->last_run()) throw core::InputError("the backward pass needs a forward run first");
    const CpuNormalizer::Last& last = *n_->last_run();
    const core::StatLayout& l = last.layout;
    const auto dims = dy.shape.dims();
    core::check_grad_shape(l.shape, {dims.begin(), dims.end()});
    if (dy.data.size() != static_cast<std::size_t>(l.shape.numel()))
        throw core::InputError("dy has " + std::to_string(dy.data.size()) + " values, its shape needs " +
                               std::to_string(l.shape.numel()));
    const CpuNormalizer::Buffers b = n_->buffers();
    const bool rms = last.spec.method == core::Method::Rms, eval = last.from_running;
    const bool has_w = last.spec.has_weight();
    const auto gamma = [&](std::int64_t s, std::int64_t e) {
        return has_w ? b.weight[static_cast<std::size_t>(l.param_of_element(s, e))] : 1.0f;
    };
    const auto at = [](const std::vector<float>& v, std::int64_t i) { return v[static_cast<std::size_t>(i)]; };
    core::GradResult r;
    const auto t = std::chrono::steady_clock::now();
    r.dx.shape = l.shape;
    r.dx.data.resize(dy.data.size());
    for (std::int64_t s = 0; s < l.stat_count; ++s) {
        const float* st = b.stats.data() + static_cast<std::size_t>(s) * 4;
        float mg = 0.0f, mgx = 0.0f;  // mean g, mean g·x̂ (grad_reduce + grad_merge)
        if (!eval) {
            CompensatedSum sg, sgx;
            each_element(l, s, [&](std::int64_t e, std::int64_t i) {
                const float g = at(dy.data, i) * gamma(s, e);
                sg.add(g);
                sgx.add(g * xhat(b.x[static_cast<std::size_t>(i)], st, rms));
            });
            const float n = static_cast<float>(l.count());
            mg = sg.total() / n;
            mgx = sgx.total() / n;
            r.mean_g.push_back(mg);
            r.mean_gxhat.push_back(mgx);
        }
        const float m = rms ? 0.0f : mg;
        each_element(l, s, [&](std::int64_t e, std::int64_t i) {  // grad_apply
            const float g = at(dy.data, i) * gamma(s, e);
            r.dx.data[static_cast<std::size_t>(i)] =
                st[3] * (g - m - xhat(b.x[static_cast<std::size_t>(i)], st, rms) * mgx);
        });
    }
    // ∂L/∂β = Σ dy and ∂L/∂γ = Σ dy·x̂ over each γ/β index's elements (the γ/β pass).
    const plan::ParamLayout pl = plan::param_layout(l, last.spec);
    for (std::int64_t p = 0; p < pl.layout.stat_count; ++p) {
        const std::int64_t pterm = pl.p_div ? p / pl.p_div : 0;
        CompensatedSum sdy, sdyx;
        each_element(pl.layout, p, [&](std::int64_t e, std::int64_t i) {
            const std::int64_t j = e / pl.layout.segment_len;
            const float* st = b.stats.data() + static_cast<std::size_t>(j * pl.seg_mul + pterm) * 4;
            const float d = at(dy.data, i);
            sdy.add(d);
            sdyx.add(d * xhat(b.x[static_cast<std::size_t>(i)], st, rms));
        });
        if (last.spec.has_bias()) r.dbias.push_back(sdy.total());
        if (has_w) r.dweight.push_back(sdyx.total());
    }
    r.dispatch_ms = plan::ms_since(t);
    return r;
}

}  // namespace normlab::cpu
