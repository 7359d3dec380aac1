#include "normlab/core/adain.hpp"

#include <cmath>

namespace normlab {

NormSpec style_run_spec(const NormSpec& content_spec) {
    NormSpec s = default_spec(Method::Instance);
    s.eps = content_spec.effective_eps();
    return s;
}

StyleStats style_stats_of(const NormResult& style_run, const NormSpec& content_spec) {
    const double eps = style_run_spec(content_spec).effective_eps();
    StyleStats out;
    out.mean = style_run.mean;
    out.var = style_run.var;
    for (double v : style_run.var) out.stdev.push_back(std::sqrt(v + eps));
    return out;
}

StyleStats style_statistics(ComputeBackend& backend, const Tensor& style, const NormSpec& spec) {
    return style_stats_of(backend.normalize(style, style_run_spec(spec), {}, kStyleRunOptions), spec);
}

void apply_style(const StyleStats& s, NormSpec& spec, NormParams& params) {
    spec.affine = true;
    params.weight.assign(s.stdev.begin(), s.stdev.end());
    params.bias.assign(s.mean.begin(), s.mean.end());
}

}  // namespace normlab
