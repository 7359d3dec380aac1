#include "random_configs.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/core/tensor_init.hpp"

#include <cmath>
#include <optional>
#include <sstream>

namespace normlab::test {

std::string describe(const core::Shape4& s, const core::NormSpec& spec) {
    std::ostringstream os;
    os << core::method_name(spec.method) << " " << s.str();
    if (spec.method == core::Method::Group) os << " G=" << spec.groups;
    if (!spec.normalized_shape.empty()) os << " normalized_shape=" << core::dims_str(spec.normalized_shape);
    os << " affine=" << spec.affine << " bias=" << spec.bias << " mode=" << core::mode_name(spec.mode)
       << " momentum=" << (spec.momentum ? std::to_string(*spec.momentum) : "cumulative")
       << " track=" << spec.track_running_stats << " eps=" << spec.effective_eps();
    return os.str();
}

core::Shape4 random_shape(int rank, const std::vector<std::int64_t>& sizes, std::mt19937_64& rng) {
    auto draw = [&]() { return sizes[rng() % sizes.size()]; };
    const std::int64_t n = draw(), c = draw(), h = draw(), w = draw();
    switch (rank) {
        case 2: return core::Shape4::flat(n, c);
        case 3: return core::Shape4::seq(n, c, w);
        case 5: return core::Shape4::volume(n, c, h, draw(), w);
        default: return core::Shape4{n, c, h, w};
    }
}

std::pair<core::NormSpec, core::NormParams> random_config(core::Method m, const core::Shape4& s, std::mt19937_64& rng) {
    core::NormSpec spec = core::default_spec(m);
    core::NormParams p;
    auto coin = [&]() { return (rng() & 1) != 0; };
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    if (coin()) spec.eps = uniform(1e-6, 1e-2);
    spec.affine = m == core::Method::Instance ? coin() : (rng() % 4 != 0);
    if (m == core::Method::Group) {
        auto d = session::divisors(s.c);
        spec.groups = d[rng() % d.size()];
    }
    if (m == core::Method::Layer || m == core::Method::Rms) {  // the last k dims, 1 <= k < rank
        const auto dims = s.dims();
        const auto k = static_cast<std::ptrdiff_t>(1 + rng() % (dims.size() - 1));
        spec.normalized_shape.assign(dims.end() - k, dims.end());
        if (m == core::Method::Layer) spec.bias = coin();
    }
    if (m == core::Method::Batch) {
        spec.mode = coin() ? core::Mode::Train : core::Mode::Eval;
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
    core::StatLayout layout = core::make_layout(spec, s);
    if (spec.has_weight() && coin())
        for (std::int64_t i = 0; i < layout.param_count; ++i) p.weight.push_back(static_cast<float>(uniform(-2, 2)));
    if (spec.has_bias() && coin())
        for (std::int64_t i = 0; i < layout.param_count; ++i) p.bias.push_back(static_cast<float>(uniform(-2, 2)));
    return {spec, p};
}

bool valid(core::Method, const core::Shape4& s, const core::NormSpec& spec) {
    try {
        spec.validate(s);  // the product's own rule (PyTorch's one-value refusals among them)
        return true;
    } catch (const core::InputError&) {
        return false;
    }
}

SyncCase random_sync_case(int i, std::mt19937_64& rng) {
    const std::int64_t K = std::int64_t{1} << (rng() % 3), C = 1 + static_cast<std::int64_t>(rng() % 5);
    const std::int64_t N = K * (1 + static_cast<std::int64_t>(rng() % 3));
    const std::int64_t H = 1 + static_cast<std::int64_t>(rng() % 4), W = 2 + static_cast<std::int64_t>(rng() % 5);
    SyncCase c;
    c.x = make_tensor(core::Shape4{N, C, H, W}, core::Init::Randn, 100 + i);
    core::NormSpec& spec = c.spec;
    spec = core::default_spec(core::Method::Batch);
    spec.sync_devices = K;
    spec.sync_mode = static_cast<core::SyncMode>(i % 3);
    spec.mode = i % 4 == 3 ? core::Mode::Eval : core::Mode::Train;
    spec.track_running_stats = i % 8 != 7;
    spec.momentum = i % 5 == 4 ? std::nullopt : std::optional<double>(0.25);
    core::NormParams& p = c.params;
    std::normal_distribution<float> nd;
    for (std::int64_t ch = 0; ch < C; ++ch) {
        p.weight.push_back(1.0f + 0.3f * nd(rng));
        p.bias.push_back(0.3f * nd(rng));
        p.running_mean.push_back(0.1f * nd(rng));
        p.running_var.push_back(1.0f + 0.1f * std::abs(nd(rng)));
    }
    p.num_batches_tracked = i % 3;
    if (!spec.track_running_stats) p.running_mean.clear(), p.running_var.clear();
    c.name = c.x.shape.str() + " K " + std::to_string(K) + " " + core::sync_mode_name(spec.sync_mode) + " " +
             core::mode_name(spec.mode);
    return c;
}

}  // namespace normlab::test
