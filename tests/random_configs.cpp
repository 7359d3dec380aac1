#include "random_configs.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/state_edits.hpp"
#include "normlab/core/tensor_init.hpp"

#include <cmath>
#include <optional>
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

SyncCase random_sync_case(int i, std::mt19937_64& rng) {
    const std::int64_t K = std::int64_t{1} << (rng() % 3), C = 1 + static_cast<std::int64_t>(rng() % 5);
    const std::int64_t N = K * (1 + static_cast<std::int64_t>(rng() % 3));
    const std::int64_t H = 1 + static_cast<std::int64_t>(rng() % 4), W = 2 + static_cast<std::int64_t>(rng() % 5);
    SyncCase c;
    c.x = make_tensor(Shape4{N, C, H, W}, Init::Randn, 100 + i);
    NormSpec& spec = c.spec;
    spec = default_spec(Method::Batch);
    spec.sync_devices = K;
    spec.sync_mode = static_cast<SyncMode>(i % 3);
    spec.mode = i % 4 == 3 ? Mode::Eval : Mode::Train;
    spec.track_running_stats = i % 8 != 7;
    spec.momentum = i % 5 == 4 ? std::nullopt : std::optional<double>(0.25);
    NormParams& p = c.params;
    std::normal_distribution<float> nd;
    for (std::int64_t ch = 0; ch < C; ++ch) {
        p.weight.push_back(1.0f + 0.3f * nd(rng));
        p.bias.push_back(0.3f * nd(rng));
        p.running_mean.push_back(0.1f * nd(rng));
        p.running_var.push_back(1.0f + 0.1f * std::abs(nd(rng)));
    }
    p.num_batches_tracked = i % 3;
    if (!spec.track_running_stats) p.running_mean.clear(), p.running_var.clear();
    c.name =
        c.x.shape.str() + " K " + std::to_string(K) + " " + sync_mode_name(spec.sync_mode) + " " + mode_name(spec.mode);
    return c;
}

}  // namespace normlab::test
