#include "normlab/adain.hpp"

#include <cmath>

namespace normlab {

StyleStats style_statistics(Normalizer& normalizer, const Tensor& style, const NormSpec& spec) {
    NormSpec s = default_spec(Method::Instance);
    s.eps = spec.effective_eps();
    RunOptions ro;
    ro.read_y = false;  // only the statistics are needed
    const NormResult r = normalizer.run(style, s, {}, ro);
    StyleStats out;
    out.mean = r.mean;
    out.var = r.var;
    for (double v : r.var) out.stdev.push_back(std::sqrt(v + s.effective_eps()));
    return out;
}

void apply_style(const StyleStats& s, NormSpec& spec, NormParams& params) {
    spec.affine = true;
    params.weight.assign(s.stdev.begin(), s.stdev.end());
    params.bias.assign(s.mean.begin(), s.mean.end());
}

}  // namespace normlab
