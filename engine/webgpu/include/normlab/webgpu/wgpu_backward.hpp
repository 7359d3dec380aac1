// WgpuBackward: the gradients of L = Σ dy ⊙ y (∂L/∂x, ∂L/∂γ, ∂L/∂β) of the WgpuNormalizer's last
// run, as the Vulkan Backward does (the same GradResult, checked against reference_backward), on
// the one backward plan (normlab/plan/backward_plan.hpp) over the WGSL kernels' traits: where the
// forward fused, grad_fused.wgsl reads x and dy once and writes the statistic's means and ∂L/∂x;
// where the plan loops, grad_looped.wgsl does the same in one workgroup per statistic that reads
// them twice; elsewhere grad_reduce.wgsl sums g = dy·γ and g·x̂ per chunk, grad_merge.wgsl adds them up and
// grad_apply.wgsl writes ∂L/∂x (BatchNorm eval: the last alone). ∂L/∂γ and ∂L/∂β come, as on
// Vulkan, from those kernels' own partials where the plan says so (one γ per statistic or chunk,
// GroupNorm's channel runs, the rows of layer/rms), merged by grad_merge.wgsl; elsewhere the γ/β
// pass sums dy and dy·x̂ per γ/β index over the ParamLayout (normlab/plan/param_layout.hpp) and
// merges them.
// Like the forward here, no slabs: every buffer must fit one binding (refused with the limit named).
#pragma once
#include "normlab/core/grad.hpp"
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <vector>

namespace normlab::webgpu {

class BindGroup;  // wgpu_dispatch.hpp

class WgpuBackward {
public:
    explicit WgpuBackward(WgpuNormalizer& n);

    // The gradients for upstream gradient dy (the last forward's shape); throws InputError when no
    // forward ran or dy's shape differs.
    core::GradResult run(const core::Tensor& dy);
    // The path the last run took (normlab/plan/backward_plan.hpp): "eval", "fused", "looped" or
    // "split" ("" before the first).
    const char* last_path() const { return last_path_; }

private:
    struct Pass;
    struct Plan;
    // Records and submits the plan's passes, each with its bind group.
    void encode(const Plan& p, const std::vector<BindGroup>& groups);
    WgpuNormalizer* n_;
    WgpuBuffer dy_, dx_, stat_partials_, stat_means_, param_partials_, param_sums_;
    std::vector<WgpuBuffer> uniforms_;
    const char* last_path_ = "";
};

}  // namespace normlab::webgpu
