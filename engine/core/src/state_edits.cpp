#include "normlab/core/state_edits.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/presets.hpp"

#include <algorithm>
#include <utility>

namespace normlab {

std::vector<std::int64_t> divisors(std::int64_t c) {
    std::vector<std::int64_t> d;
    for (std::int64_t g = 1; g <= c; ++g)
        if (c % g == 0) d.push_back(g);
    return d;
}

namespace {
// γ/β back to ones and zeros (their shape follows the method and normalized_shape).
State without_params(State s) {
    s.params.weight.clear();
    s.params.bias.clear();
    return s;
}
}  // namespace

State with_method(const State& s, Method m, std::int64_t channels) {
    if (s.spec.method == m) return s;
    State next = without_params(s);
    next.spec = default_spec(m);
    if (m == Method::Group) next.spec.groups = default_groups(channels, s.spec.groups);
    return with_running_reset(next);
}

State with_groups(const State& s, std::int64_t g) {
    State next = s;
    next.spec.groups = g;
    return next;
}

std::optional<State> with_groups_step(const State& s, std::int64_t channels, int step) {
    const auto ds = divisors(channels);
    const auto it = std::find(ds.begin(), ds.end(), s.spec.groups);
    if (it == ds.end() || step == 0) return std::nullopt;
    const auto i = (it - ds.begin()) + (step > 0 ? 1 : -1);
    if (i < 0 || i >= static_cast<std::ptrdiff_t>(ds.size())) return std::nullopt;
    return with_groups(s, ds[static_cast<std::size_t>(i)]);
}

State with_normalized_shape(const State& s, std::vector<std::int64_t> dims) {
    State next = without_params(s);
    next.spec.normalized_shape = std::move(dims);
    return next;
}

State with_eps(const State& s, double eps) {
    State next = s;
    next.spec.eps = eps;
    return next;
}

State with_affine(const State& s, bool affine) {
    State next = s;
    next.spec.affine = affine;
    return next;
}

State with_bias(const State& s, bool bias) {
    State next = s;
    next.spec.bias = bias;
    return next;
}

State with_params(const State& s, std::vector<float> weight, std::vector<float> bias) {
    State next = s;
    next.params.weight = std::move(weight);
    next.params.bias = s.spec.has_bias() ? std::move(bias) : std::vector<float>{};
    return next;
}

State with_mode(const State& s, Mode m) {
    State next = s;
    next.spec.mode = m;
    return next;
}

State toggled_mode(const State& s) { return with_mode(s, s.spec.mode == Mode::Train ? Mode::Eval : Mode::Train); }

State with_momentum(const State& s, std::optional<double> momentum) {
    State next = s;
    next.spec.momentum = momentum;
    return next;
}

State with_running_reset(const State& s) {
    State next = s;
    next.params.running_mean.clear();
    next.params.running_var.clear();
    next.params.num_batches_tracked = 0;
    return next;
}

State with_sync_devices(const State& s, std::int64_t k) {
    State next = s;
    next.spec.sync_devices = k;
    return next;
}

State with_sync_mode(const State& s, SyncMode m) {
    State next = s;
    next.spec.sync_mode = m;
    return next;
}

State with_style_image(const State& s, std::string path) {
    State next = s;
    next.style_image = std::move(path);
    return next;
}

State with_exercise(const State& s, Exercise e) {
    State next = s;
    next.exercise = std::move(e);
    return next;
}

State with_source_kind(const State& s, TensorSource::Kind kind, const Shape4& current_shape) {
    State next = s;
    next.source.kind = kind;
    if (kind == TensorSource::Kind::Generated) next.source.shape = current_shape;  // the same size, drawn anew
    return next;
}

State with_source_shape(const State& s, const Shape4& shape) {
    State next = s;
    next.source.kind = TensorSource::Kind::Generated;
    next.source.shape = shape;
    return next;
}

State with_source_init(const State& s, Init init) {
    State next = s;
    next.source.init = init;
    return next;
}

State with_source_value(const State& s, float value) {
    State next = s;
    next.source.value = value;
    return next;
}

State with_source_seed(const State& s, std::uint64_t seed) {
    State next = s;
    next.source.seed = seed;
    return next;
}

State with_source_preset(const State& s, const std::string& name) {
    State next = s;
    next.source.kind = TensorSource::Kind::Preset;
    next.source.preset = name;
    if (const Preset* p = find_preset(name)) {
        next.spec = p->spec;
        next.params.weight = p->params.weight;
        next.params.bias = p->params.bias;
    }
    return next;
}

State with_source_file(const State& s, std::string path) {
    State next = s;
    next.source.kind = TensorSource::Kind::File;
    next.source.path = std::move(path);
    return next;
}

State with_source_image(const State& s, std::string path) {
    State next = s;
    next.source.kind = TensorSource::Kind::Image;
    next.source.path = std::move(path);
    return next;
}

State fitted_to_tensor(State s, const StatLayout& layout) {
    auto fit = [](std::vector<float>& v, std::int64_t n) {
        if (!v.empty() && static_cast<std::int64_t>(v.size()) != n) v.clear();
    };
    fit(s.params.weight, layout.param_count);
    fit(s.params.bias, layout.param_count);
    fit(s.params.running_mean, layout.shape.c);
    fit(s.params.running_var, layout.shape.c);
    if (!s.spec.has_weight()) s.params.weight.clear();
    if (!s.spec.has_bias()) s.params.bias.clear();
    try {
        validate_selection(s.selection, layout.shape);
    } catch (const InputError&) {
        s.selection.reset();  // the tensor shrank under the selection
    }
    return s;
}

}  // namespace normlab
