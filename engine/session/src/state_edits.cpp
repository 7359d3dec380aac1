#include "normlab/session/state_edits.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/presets.hpp"

#include <algorithm>
#include <utility>

namespace normlab::session {

std::vector<std::int64_t> divisors(std::int64_t c) {
    std::vector<std::int64_t> d;
    for (std::int64_t g = 1; g <= c; ++g)
        if (c % g == 0) d.push_back(g);
    return d;
}

namespace {
// γ/β back to ones and zeros (their shape follows the method and normalized_shape).
core::State without_params(core::State s) {
    s.params.weight.clear();
    s.params.bias.clear();
    return s;
}
}  // namespace

core::State with_method(const core::State& s, core::Method m, std::int64_t channels) {
    if (s.spec.method == m) return s;
    core::State next = without_params(s);
    next.spec = core::default_spec(m);
    if (m == core::Method::Group) next.spec.groups = core::default_groups(channels, s.spec.groups);
    return with_running_reset(next);
}

core::State with_groups(const core::State& s, std::int64_t g) {
    core::State next = s;
    next.spec.groups = g;
    return next;
}

std::optional<core::State> with_groups_step(const core::State& s, std::int64_t channels, int step) {
    const auto ds = divisors(channels);
    const auto it = std::find(ds.begin(), ds.end(), s.spec.groups);
    if (it == ds.end() || step == 0) return std::nullopt;
    const auto i = (it - ds.begin()) + (step > 0 ? 1 : -1);
    if (i < 0 || i >= static_cast<std::ptrdiff_t>(ds.size())) return std::nullopt;
    return with_groups(s, ds[static_cast<std::size_t>(i)]);
}

core::State with_normalized_shape(const core::State& s, std::vector<std::int64_t> dims) {
    core::State next = without_params(s);
    next.spec.normalized_shape = std::move(dims);
    return next;
}

core::State with_eps(const core::State& s, double eps) {
    core::State next = s;
    next.spec.eps = eps;
    return next;
}

core::State with_affine(const core::State& s, bool affine) {
    core::State next = s;
    next.spec.affine = affine;
    return next;
}

core::State with_bias(const core::State& s, bool bias) {
    core::State next = s;
    next.spec.bias = bias;
    return next;
}

core::State with_params(const core::State& s, std::vector<float> weight, std::vector<float> bias) {
    core::State next = s;
    next.params.weight = std::move(weight);
    next.params.bias = s.spec.has_bias() ? std::move(bias) : std::vector<float>{};
    return next;
}

core::State with_mode(const core::State& s, core::Mode m) {
    core::State next = s;
    next.spec.mode = m;
    return next;
}

core::State toggled_mode(const core::State& s) {
    return with_mode(s, s.spec.mode == core::Mode::Train ? core::Mode::Eval : core::Mode::Train);
}

core::State with_momentum(const core::State& s, std::optional<double> momentum) {
    core::State next = s;
    next.spec.momentum = momentum;
    return next;
}

core::State with_running_reset(const core::State& s) {
    core::State next = s;
    next.params.running_mean.clear();
    next.params.running_var.clear();
    next.params.num_batches_tracked = 0;
    return next;
}

core::State with_sync_devices(const core::State& s, std::int64_t k) {
    core::State next = s;
    next.spec.sync_devices = k;
    return next;
}

core::State with_sync_mode(const core::State& s, core::SyncMode m) {
    core::State next = s;
    next.spec.sync_mode = m;
    return next;
}

core::State with_style_image(const core::State& s, std::string path) {
    core::State next = s;
    next.style_image = std::move(path);
    return next;
}

core::State with_exercise(const core::State& s, core::Exercise e) {
    core::State next = s;
    next.exercise = std::move(e);
    return next;
}

core::State with_source_kind(const core::State& s, core::TensorSource::Kind kind, const core::Shape4& current_shape) {
    core::State next = s;
    next.source.kind = kind;
    if (kind == core::TensorSource::Kind::Generated) next.source.shape = current_shape;  // the same size, drawn anew
    return next;
}

core::State with_source_shape(const core::State& s, const core::Shape4& shape) {
    core::State next = s;
    next.source.kind = core::TensorSource::Kind::Generated;
    next.source.shape = shape;
    return next;
}

core::State with_source_init(const core::State& s, core::Init init) {
    core::State next = s;
    next.source.init = init;
    return next;
}

core::State with_source_value(const core::State& s, float value) {
    core::State next = s;
    next.source.value = value;
    return next;
}

core::State with_source_seed(const core::State& s, std::uint64_t seed) {
    core::State next = s;
    next.source.seed = seed;
    return next;
}

core::State with_source_preset(const core::State& s, const std::string& name) {
    core::State next = s;
    next.source.kind = core::TensorSource::Kind::Preset;
    next.source.preset = name;
    if (const io::Preset* p = io::find_preset(name)) {
        next.spec = p->spec;
        next.params.weight = p->params.weight;
        next.params.bias = p->params.bias;
    }
    return next;
}

core::State with_source_file(const core::State& s, std::string path) {
    core::State next = s;
    next.source.kind = core::TensorSource::Kind::File;
    next.source.path = std::move(path);
    return next;
}

core::State with_source_image(const core::State& s, std::string path) {
    core::State next = s;
    next.source.kind = core::TensorSource::Kind::Image;
    next.source.path = std::move(path);
    return next;
}

core::State fitted_to_tensor(core::State s, const core::StatLayout& layout) {
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
        core::validate_selection(s.selection, layout.shape);
    } catch (const core::InputError&) {
        s.selection.reset();  // the tensor shrank under the selection
    }
    return s;
}

}  // namespace normlab::session
