#include "normlab/plan/forward_inputs.hpp"

#include "normlab/core/error.hpp"

#include <cmath>
#include <string>

namespace normlab::plan {

core::StatLayout checked_forward_layout(const core::Tensor& x, const core::NormSpec& spec,
                                        const core::NormParams& params) {
    x.shape.validate();
    const std::int64_t numel = x.shape.numel();
    if (static_cast<std::int64_t>(x.data.size()) != numel)
        throw core::InputError("tensor data has " + std::to_string(x.data.size()) + " values, its shape " +
                               x.shape.str() + " needs " + std::to_string(numel));
    core::StatLayout layout = core::make_layout(spec, x.shape);
    params.validate(spec, layout);
    return layout;
}

ForwardParams forward_params(const core::NormSpec& spec, const core::NormParams& params, const core::StatLayout& layout,
                             std::size_t padded) {
    const auto count = static_cast<std::size_t>(layout.param_count);
    ForwardParams p;
    if (spec.has_weight()) {
        p.weight = params.weight.empty() ? std::vector<float>(count, 1.0f) : params.weight;
        p.weight.resize(padded, 0.0f);
    }
    if (spec.has_bias()) {
        p.bias = params.bias.empty() ? std::vector<float>(count, 0.0f) : params.bias;
        p.bias.resize(padded, 0.0f);
    }
    return p;
}

std::vector<float> statistics_inputs(const core::Tensor& x, const core::StatLayout& layout,
                                     const core::NormParams& params, bool from_running, double eps) {
    const std::int64_t S = layout.stat_count;
    const bool rms = layout.method == core::Method::Rms;
    std::vector<float> in(static_cast<std::size_t>(S) * 4, 0.0f);
    for (std::int64_t s = 0; s < S; ++s) {
        float* v = &in[static_cast<std::size_t>(s) * 4];
        if (from_running) {
            const double rm = params.running_mean.empty() ? 0.0 : params.running_mean[static_cast<std::size_t>(s)];
            const double rv = params.running_var.empty() ? 1.0 : params.running_var[static_cast<std::size_t>(s)];
            v[0] = static_cast<float>(rm);
            v[2] = static_cast<float>(rv);
            v[3] = static_cast<float>(1.0 / std::sqrt(rv + eps));
        } else if (!rms) {
            v[0] = x.data[static_cast<std::size_t>(layout.element_offset(s, 0))];
        }
    }
    return in;
}

}  // namespace normlab::plan
