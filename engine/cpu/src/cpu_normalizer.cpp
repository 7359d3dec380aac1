#include "normlab/cpu/cpu_normalizer.hpp"

#include "normlab/plan/backend_helpers.hpp"
#include "normlab/core/error.hpp"
#include "normlab/plan/forward_inputs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

namespace normlab::cpu {
namespace {

constexpr unsigned kFlagNan = 1, kFlagInf = 2;

unsigned nonfinite_flag(float v) {
    if (std::isfinite(v)) return 0;
    return std::isnan(v) ? kFlagNan : kFlagInf;
}

// norm_common.wgsl's finish_stat: (K, mean, var, rstd) from (n, mean, M2) and the non-finite flags.
void finish_stat(float* st, float K, float n, float mean, float m2, unsigned flags, bool rms, float eps) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    if ((flags & kFlagNan) || (!rms && flags)) {
        st[0] = K, st[1] = nan, st[2] = nan, st[3] = nan;
        return;
    }
    if (rms && flags) {  // infinities only: the mean square is +inf, rstd 0
        st[0] = 0, st[1] = 0, st[2] = std::numeric_limits<float>::infinity(), st[3] = 0;
        return;
    }
    const float v = std::max(rms ? mean : m2 / n, 0.0f);
    const float rstd = 1.0f / std::sqrt(v + eps);
    st[0] = rms ? 0.0f : K, st[1] = rms ? 0.0f : mean, st[2] = v, st[3] = rstd;
}

}  // namespace

void CpuNormalizer::check_capacity(const core::Shape4& shape) const {
    shape.validate();
    if (shape.numel() > max_elements_)
        throw core::InputError("the tensor " + shape.str() + " has " + std::to_string(shape.numel()) +
                               " elements; the CPU backend takes at most " + std::to_string(max_elements_) +
                               " (larger tensors need WebGPU, or normlab-cli)");
}

void CpuNormalizer::load_values(const core::Tensor& x, const core::Tensor& y) {
    if (x.shape != y.shape || x.data.size() != y.data.size() ||
        x.data.size() != static_cast<std::size_t>(x.shape.numel()))
        throw core::InputError("load_values: x " + x.shape.str() + " and y " + y.shape.str() +
                               " differ in shape or size");
    check_capacity(x.shape);
    last_.reset();
    x_.ensure(x.data.size());
    y_.ensure(y.data.size());
    std::copy(x.data.begin(), x.data.end(), x_.data());
    std::copy(y.data.begin(), y.data.end(), y_.data());
    x_loaded_ = x.shape;
    x_nonfinite_ = core::count_nonfinite(x.data);
}

void CpuNormalizer::normalize_stat(const core::StatLayout& l, std::int64_t s, bool rms, float eps, bool from_running,
                                   const std::vector<float>& bias) {
    float* st = &stats_[static_cast<std::size_t>(s) * 4];
    const std::int64_t base = s * l.stat_stride;
    // Every element of the statistic: f(e, flat offset).
    const auto each = [&](auto&& f) {
        for (std::int64_t j = 0; j < l.segments; ++j) {
            const std::int64_t run = base + j * l.segment_stride, e0 = j * l.segment_len;
            for (std::int64_t k = 0; k < l.segment_len; ++k) f(e0 + k, run + k);
        }
    };
    if (!from_running) {
        const float K = rms ? 0.0f : st[0];
        CompensatedSum sum;
        unsigned flags = 0;
        each([&](std::int64_t, std::int64_t i) {
            const float x = x_[static_cast<std::size_t>(i)];
            flags |= nonfinite_flag(x);
            sum.add(rms ? x * x : x - K);
        });
        const float n = static_cast<float>(l.count());
        const float mean = sum.total() / n;
        // M2 by the corrected two-pass sum around μ = K + mean: x − μ is exact where x − K is not (an
        // outlying K), and the (Σd)²/n term takes out what μ's own rounding adds.
        CompensatedSum dev, dsum;
        const float mu = K + mean;
        if (!rms)
            each([&](std::int64_t, std::int64_t i) {
                const float d = x_[static_cast<std::size_t>(i)] - mu;
                dev.add(d * d);
                dsum.add(d);
            });
        const float m2 = dev.total() - dsum.total() * dsum.total() / n;
        finish_stat(st, K, n, mean, m2, flags, rms, eps);
    }
    const float K = st[0], mean = st[1], rstd = st[3];
    const bool bad = rstd == 0.0f || !std::isfinite(rstd);  // norm_common.wgsl's normalized4
    const std::int64_t pbase = (s % l.param_stat_mod) * l.param_stat_mul;
    each([&](std::int64_t e, std::int64_t i) {
        const float x = x_[static_cast<std::size_t>(i)];
        float y = rms ? x * rstd : ((x - K) - mean) * rstd;
        const std::int64_t p = l.param_elem_div ? pbase + e / l.param_elem_div : pbase;
        if (has_w_) y *= w_[static_cast<std::size_t>(p)];
        if (!bias.empty()) y += bias[static_cast<std::size_t>(p)];
        if (bad && (!std::isfinite(rstd) || !std::isfinite(x))) y = std::numeric_limits<float>::quiet_NaN();
        y_[static_cast<std::size_t>(i)] = y;
    });
}

core::NormResult CpuNormalizer::run(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                                    const plan::RunOptions& options) {
    const core::StatLayout layout = plan::checked_forward_layout(x, spec, params);
    check_capacity(x.shape);
    const bool rms = spec.method == core::Method::Rms;
    const bool from_running = !spec.uses_batch_stats();
    const double eps = spec.effective_eps();
    const auto numel = static_cast<std::size_t>(x.shape.numel());
    const auto S = static_cast<std::size_t>(layout.stat_count);

    core::NormResult r;
    r.layout = layout;
    r.stats_from_running = from_running;
    last_.reset();
    auto t = std::chrono::steady_clock::now();
    const bool upload_x = !(options.reuse_x && x_loaded_ == x.shape && x_.size() >= numel);
    r.nonfinite_inputs = upload_x ? core::count_nonfinite(x.data) : x_nonfinite_;
    x_.ensure(numel);
    y_.ensure(numel);
    if (upload_x) std::copy(x.data.begin(), x.data.end(), x_.data());
    x_loaded_ = x.shape;
    x_nonfinite_ = r.nonfinite_inputs;
    const plan::ForwardParams host =
        plan::forward_params(spec, params, layout, static_cast<std::size_t>(layout.param_count));
    has_w_ = !host.weight.empty();
    w_.ensure(std::max<std::size_t>(host.weight.size(), 1));
    std::copy(host.weight.begin(), host.weight.end(), w_.data());
    const std::vector<float> stats_in = plan::statistics_inputs(x, layout, params, from_running, eps);
    stats_.ensure(S * 4);
    std::copy(stats_in.begin(), stats_in.end(), stats_.data());
    r.upload_ms = plan::ms_since(t);

    t = std::chrono::steady_clock::now();
    for (std::size_t s = 0; s < S; ++s)
        normalize_stat(layout, static_cast<std::int64_t>(s), rms, static_cast<float>(eps), from_running, host.bias);
    r.dispatch_ms = plan::ms_since(t);

    t = std::chrono::steady_clock::now();
    r.y.shape = x.shape;
    if (options.read_y) r.y.data.assign(y_.data(), y_.data() + numel);
    core::unpack_stats(r, stats_.data(), rms);
    r.readback_ms = plan::ms_since(t);
    last_ = Last{layout, spec, from_running};
    core::update_running_stats(spec, params, r);
    return r;
}

}  // namespace normlab::cpu
