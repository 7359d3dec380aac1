#include "kernel_cases.hpp"

#include "normlab/core/stat_layout.hpp"

namespace normlab::test {
namespace {

core::NormSpec layer(core::Method m, std::vector<std::int64_t> normalized) {
    core::NormSpec s = core::default_spec(m);
    s.normalized_shape = std::move(normalized);
    return s;
}
core::NormSpec group(std::int64_t groups) {
    core::NormSpec s = core::default_spec(core::Method::Group);
    s.groups = groups;
    return s;
}
core::NormSpec affine_instance() {
    core::NormSpec s = core::default_spec(core::Method::Instance);
    s.affine = true;
    return s;
}
// γ and β of every parameter, running statistics of every channel: values that are not 1 and 0.
core::NormParams params_for(const core::NormSpec& spec, const core::Shape4& shape) {
    core::NormParams p;
    const core::StatLayout l = core::make_layout(spec, shape);
    for (std::int64_t i = 0; spec.has_weight() && i < l.param_count; ++i) p.weight.push_back(0.5f + 0.25f * (i % 5));
    for (std::int64_t i = 0; spec.has_bias() && i < l.param_count; ++i) p.bias.push_back(-0.5f + 0.125f * (i % 7));
    if (spec.method == core::Method::Batch && spec.mode == core::Mode::Eval)
        for (std::int64_t c = 0; c < shape.c; ++c) {
            p.running_mean.push_back(0.1f * static_cast<float>(c));
            p.running_var.push_back(1.0f + 0.2f * static_cast<float>(c));
        }
    return p;
}
GradCase make(std::string name, core::Shape4 shape, core::NormSpec spec, std::string vulkan, std::string webgpu) {
    core::NormParams p = params_for(spec, shape);
    return {std::move(name), shape, std::move(spec), std::move(p), std::move(vulkan), std::move(webgpu)};
}

}  // namespace

// Fused: statistics that fit one owner (lavapipe: a subgroup's registers; SwiftShader: fewer than
// 1024 accesses). Both loop over longer ones on a CPU device where the looped kernel gives ∂L/∂γ,
// ∂L/∂β too (one γ per statistic, GroupNorm's channels, blocks of layer/rms rows). BatchNorm eval is
// the element-wise ∂L/∂x alone on both. The browser's kernel test also runs each case with the looped
// kernel forced and kept off.
const std::vector<GradCase>& grad_cases() {
    static const std::vector<GradCase> cases = [] {
        core::NormSpec eval = core::default_spec(core::Method::Batch);
        eval.mode = core::Mode::Eval;
        return std::vector<GradCase>{
            make("layer over 256", core::Shape4::flat(8, 256), layer(core::Method::Layer, {256}), "fused", "fused"),
            make("rms over 40 (3-D)", core::Shape4::seq(4, 3, 40), layer(core::Method::Rms, {40}), "fused", "fused"),
            make("instance, affine", {2, 3, 16, 16}, affine_instance(), "fused", "fused"),
            make("group G=2, γ per channel", {2, 8, 16, 16}, group(2), "looped", "fused"),
            make("group G=3, odd runs", {2, 6, 5, 7}, group(3), "fused", "fused"),
            make("batch train", {4, 3, 64, 64}, core::default_spec(core::Method::Batch), "looped", "looped"),
            make("layer over [64, 64]", {2, 1, 64, 64}, layer(core::Method::Layer, {64, 64}), "looped", "looped"),
            make("rms over [64, 64]", {2, 1, 64, 64}, layer(core::Method::Rms, {64, 64}), "looped", "looped"),
            make("instance over 64×64, affine", {2, 2, 64, 64}, affine_instance(), "looped", "looped"),
            make("batch eval", {4, 3, 8, 8}, eval, "eval", "eval"),
        };
    }();
    return cases;
}

}  // namespace normlab::test
