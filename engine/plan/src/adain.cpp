#include "normlab/plan/adain.hpp"

#include <cmath>

namespace normlab::plan {

core::NormSpec style_run_spec(const core::NormSpec& content_spec) {
    core::NormSpec s = core::default_spec(core::Method::Instance);
    s.eps = content_spec.effective_eps();
    return s;
}

StyleStats style_stats_of(const core::NormResult& style_run, const core::NormSpec& content_spec) {
    const double eps = style_run_spec(content_spec).effective_eps();
    StyleStats out;
    out.mean = style_run.mean;
    out.var = style_run.var;
    for (double v : style_run.var) out.stdev.push_back(std::sqrt(v + eps));
    return out;
}

StyleStats style_statistics(ComputeBackend& backend, const core::Tensor& style, const core::NormSpec& spec) {
    return style_stats_of(backend.normalize(style, style_run_spec(spec), {}, kStyleRunOptions), spec);
}

void apply_style(const StyleStats& s, core::NormSpec& spec, core::NormParams& params) {
    spec.affine = true;
    params.weight.assign(s.stdev.begin(), s.stdev.end());
    params.bias.assign(s.mean.begin(), s.mean.end());
}

}  // namespace normlab::plan
