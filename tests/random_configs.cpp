#include "random_configs.hpp"

#include "normlab/error.hpp"
#include "normlab/stat_layout.hpp"
#include "normlab/state_edits.hpp"

#include <sstream>

namespace normlab::test {

std::string describe(const Shape4& s, const NormSpec& spec) {
    std::ostringstream os;
    os << method_name(spec.method) << " " << s.str();
    if (spec.method == Method::Group) os << " G=" << spec.groups;
    if (!spec.normalized_shape.empty()) os << " normalized_shape=" << dims_str(spec.normalized_shape);
    os << " affine=" << spec.affine << " bias=" << spec.bias << " mode=" << mode_name(spec.mode)
       << " momentum=" << (spec.momentum ? std::to_string(*spec.momentum) : "cumulative")
       << " track=" << spec.track_running_stats << " eps=" << spec.effective_eps();
    return os.str();
}

Shape4 random_shape(int rank, const std::vector<std::int64_t>& sizes, std::mt19937_64& rng) {
    auto draw = [&]() { return sizes[rng() % sizes.size()]; };
    const std::int64_t n = draw(), c = draw(), h = draw(), w = draw();
    switch (rank) {
        case 2: return Shape4::flat(n, c);
        case 3: return Shape4::seq(n, c, w);
        case 5: return Shape4::volume(n, c, h, draw(), w);
        default: return Shape4{n, c, h, w};
    }
}

std::pair<NormSpec, NormParams> random_config(Method m, const Shape4& s, std::mt19937_64& rng) {
    NormSpec spec = default_spec(m);
    NormParams p;
    auto coin = [&]() { return (rng() & 1) != 0; };
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    if (coin()) spec.eps = uniform(1e-6, 1e-2);
    spec.affine = m == Method::Instance ? coin() : (rng() % 4 != 0);
    if (m == Method::Group) {
        auto d = divisors(s.c);
        spec.groups = d[rng() % d.size()];
    }
    if (m == Method::Layer || m == Method::Rms) {  // the last k dims, 1 <= k < rank
        const auto dims = s.dims();
        const auto k = static_cast<std::ptrdiff_t>(1 + rng() % (dims.size() - 1));
        spec.normalized_shape.assign(dims.end() - k, dims.end());
        if (m == Method::Layer) spec.bias = coin();
    }
    if (m == Method::Batch) {
        spec.mode = coin() ? Mode::Train : Mode::Eval;
        if (coin())
            spec.momentum.reset();
        else
            spec.momentum = uniform(0.0, 1.0);
        if (rng() % 5 == 0) spec.track_running_stats = false;
        if (coin()) {
            for (std::int64_t c = 0; c < s.c; ++c) {
                p.running_mean.push_back(static_cast<float>(uniform(-1, 1)));
                p.running_var.push_back(static_cast<float>(uniform(0.2, 3)));
            }
            p.num_batches_tracked = static_cast<std::int64_t>(rng() % 10);
        }
    }
    if (!valid(m, s, spec)) return {spec, p};
    StatLayout layout = make_layout(spec, s);
    if (spec.has_weight() && coin())
        for (std::int64_t i = 0; i < layout.param_count; ++i) p.weight.push_back(static_cast<float>(uniform(-2, 2)));
    if (spec.has_bias() && coin())
        for (std::int64_t i = 0; i < layout.param_count; ++i) p.bias.push_back(static_cast<float>(uniform(-2, 2)));
    return {spec, p};
}

bool valid(Method, const Shape4& s, const NormSpec& spec) {
    try {
        spec.validate(s);  // the product's own rule (PyTorch's one-value refusals among them)
        return true;
    } catch (const InputError&) {
        return false;
    }
}

}  // namespace normlab::test
