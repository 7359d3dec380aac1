// WgpuKernels: the WGSL kernels (shaders/wgsl/*.wgsl, embedded at build time) as compute
// pipelines, one per variant (workgroup size, values per invocation, flags), on two explicit
// bind-group layouts: the forward's x, y, γ, β, statistics, partials (storage) and the layout
// (uniform), bindings 0–6 as norm_common.wgsl declares them; the backward's (grad_common.wgsl)
// x, ∂L/∂x at 1, γ, statistics, partials, layout, dy at 7 and the merged sums at 8 (no β).
#pragma once
#include "normlab/webgpu/wgpu_context.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

namespace normlab::webgpu {

// Stats: fused statistics and y (norm_stats.wgsl); Partial: a chunk's partial (norm_partial.wgsl);
// Looped: a whole statistic and its y in one workgroup's loops (norm_looped.wgsl); GradFused: a
// statistic's ∂L/∂x from x and dy read once (grad_fused.wgsl); GradLooped: from x and dy read twice
// in one workgroup's loops (grad_looped.wgsl).
enum class KernelKind { Stats, Partial, Merge, Apply, Looped, GradReduce, GradMerge, GradApply, GradFused, GradLooped };

struct KernelVariant {
    KernelKind kind = KernelKind::Apply;
    std::uint32_t wg = 64;  // workgroup size (the merge kernel's is always 64)
    std::uint32_t vpt = 1;  // values per invocation
    bool rms = false;
    bool fused = false;       // stats only: also write y
    bool param_pass = false;  // grad reduce/merge: the γ/β pass (ParamLayout) instead of the statistics pass
    bool columns = false;     // grad reduce: one invocation per γ/β index and chunk of rows (layer, rms)
    bool eval = false;        // grad apply: BatchNorm with running statistics (∂L/∂x = rstd·g)
    bool vec4 = false;        // stats/apply/grad fused: X, Y (and DY) as vec4<f32> (pack4.wgsl; vpt counts vec4s)
    // Looped and split statistics: invocations that walk one contiguous span of a run together
    // (LANE_SPAN, norm_common.wgsl's lane_span); 0: the whole workgroup.
    std::uint32_t lane_span = 0;
    // The backward's own γ/β partials (grad_common.wgsl): one γ per statistic (fused, looped), per
    // channel run (looped), per-element rows (fused, looped, apply), one γ per chunk (reduce, merge),
    // the γ/β sums from the statistics' partials (merge).
    bool one_gamma = false, run_gamma = false, rows = false, chunk_gamma = false, from_stats = false;
    auto key() const {
        return std::make_tuple(static_cast<int>(kind), wg, vpt, rms, fused, param_pass, columns, eval, vec4, lane_span,
                               one_gamma, run_gamma, rows, chunk_gamma, from_stats);
    }
    bool backward() const { return kind >= KernelKind::GradReduce; }
};

// The WGSL text of a variant: its constants, pack1.wgsl or pack4.wgsl, norm_common.wgsl, then the
// kernel's own file (and workgroup_sum.wgsl after norm_stats.wgsl, grad_fused.wgsl and
// grad_looped.wgsl, norm_welford.wgsl after norm_partial.wgsl and norm_looped.wgsl).
std::string kernel_source(const KernelVariant& v);

class WgpuKernels {
public:
    static constexpr std::uint32_t kBindings = 7, kGradStorage = 7;
    explicit WgpuKernels(const WgpuContext& ctx);
    ~WgpuKernels();
    WgpuKernels(const WgpuKernels&) = delete;
    WgpuKernels& operator=(const WgpuKernels&) = delete;

    WGPUComputePipeline pipeline(const KernelVariant& v);
    WGPUBindGroupLayout bind_layout(KernelKind k) const {
        return KernelVariant{k}.backward() ? grad_bind_layout_ : bind_layout_;
    }
    std::size_t pipelines_built() const { return pipelines_.size(); }

private:
    const WgpuContext* ctx_;
    WGPUBindGroupLayout bind_layout_ = nullptr, grad_bind_layout_ = nullptr;
    WGPUPipelineLayout pipeline_layout_ = nullptr, grad_pipeline_layout_ = nullptr;
    std::map<decltype(KernelVariant{}.key()), WGPUComputePipeline> pipelines_;
};

}  // namespace normlab::webgpu
