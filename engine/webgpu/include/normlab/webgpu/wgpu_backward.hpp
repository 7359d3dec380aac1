// WgpuBackward: the gradients of L = Σ dy ⊙ y (∂L/∂x, ∂L/∂γ, ∂L/∂β) of the WgpuNormalizer's last
// run, with the WGSL kernels grad_reduce, grad_merge and grad_apply, as the Vulkan Backward does
// (the same GradResult, checked against reference_backward): the statistics pass sums g = dy·γ
// and g·x̂ per statistic, ∂L/∂x per element, then the γ/β pass sums dy and dy·x̂ per γ/β index
// over the ParamLayout (engine/core/param_layout.hpp). BatchNorm eval has no statistics pass.
// Like the forward here, no slabs: every buffer must fit one binding (refused with the limit named).
#pragma once
#include "normlab/core/grad.hpp"
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <vector>

namespace normlab::webgpu {

class BindGroup;  // wgpu_dispatch.hpp

class WgpuBackward {
public:
    static constexpr std::uint32_t kReduceVpt = 8, kColumnRows = 64;
    explicit WgpuBackward(WgpuNormalizer& n);

    // The gradients for upstream gradient dy (the last forward's shape); throws InputError when no
    // forward ran or dy's shape differs.
    GradResult run(const Tensor& dy);

private:
    struct Plan;
    // Records and submits the passes (statistics reduce and merge, ∂L/∂x, γ/β reduce and merge).
    void encode(const Plan& p, const BindGroup* groups, bool rms, bool eval);
    WgpuNormalizer* n_;
    WgpuBuffer dy_, dx_, stat_partials_, stat_means_, param_partials_, param_sums_;
    std::vector<WgpuBuffer> uniforms_;
};

}  // namespace normlab::webgpu
