// backward_plan: the one backward kernel plan of every backend (the Vulkan Backward, the WebGPU
// WgpuBackward), made from the forward's layout and plan and the backend's PlanDevice
// (normlab/plan/kernel_plan.hpp). Its paths:
//   - eval (BatchNorm with running statistics): ∂L/∂x element-wise alone;
//   - fused (the forward fused, one window, the backend has the kernel): one kernel reads x and dy
//     once per statistic (its workgroup, accesses and vec4 are the forward plan's);
//   - looped (split statistics in one window, owners enough, ∂L/∂γ and ∂L/∂β from the same kernel
//     where the backend takes them from the passes' own partials, any statistic where it does not):
//     one owner walks each statistic (or block of rows) twice, the second read from the cache;
//   - split: per statistic Σ dy·γ and Σ dy·γ·x̂ over chunks (reduce), their merge, ∂L/∂x (apply).
// ∂L/∂γ, ∂L/∂β come from the statistics pass's partials where each chunk has one γ
// (params_from_stats), from the ∂L/∂x pass's per-row partials for layer/rms (rows), else from a
// reduce + merge over the ParamLayout (normlab/plan/param_layout.hpp).
#pragma once
#include "normlab/plan/kernel_plan.hpp"
#include "normlab/plan/param_layout.hpp"
#include "normlab/plan/slab_plan.hpp"

#include <cstdint>

namespace normlab::plan {

struct BackwardPlan {
    bool eval = false, fused = false, looped = false;  // none of them: split
    // Reductions: owners are subgroups (subgroup_owners) or workgroups of wg lanes.
    std::uint32_t wg = 0, vpt = 0, chunk_len = 0, owners_per_wg = 1;
    bool subgroup_owners = false;
    bool vec4 = false, param_vec4 = false;  // 16-byte loads: the forward's layout, the γ/β layout
    // The γ/β pass: its workgroup and chunk; columns (layer/rms): one invocation per γ/β index and
    // chunk of param_chunk_len rows.
    std::uint32_t param_wg = 0, param_chunk_len = 0;
    bool columns = false;
    std::uint32_t apply_wg = kApplyWg;  // ∂L/∂x: fewer lanes for small statistics where the kernels allow
    // Every reduce chunk has one γ: ∂L/∂γ, ∂L/∂β added up from the statistics pass's partials,
    // chunks_per_gamma consecutive chunks per γ.
    bool params_from_stats = false;
    std::uint32_t chunks_per_gamma = 0;
    // rows (layer/rms): the fused, looped or apply kernel adds up ∂L/∂γ, ∂L/∂β over blocks of
    // rows_per statistics (row_blocks of them); one_gamma: one γ per statistic.
    bool rows = false, one_gamma = false;
    std::uint32_t rows_per = 1, row_blocks = 0;
    // The looped kernel: lanes per owner (a subgroup: looped_sg); GroupNorm with a γ per channel
    // sums channel by channel (run_gamma), gamma_runs partials per statistic.
    std::uint32_t looped_wg = 0;
    bool looped_sg = false, run_gamma = false;
    std::uint32_t gamma_runs = 1;
    SlabPlan reduce_slabs, apply_slabs, param_slabs;
    ParamLayout pl;
    std::uint64_t stat_partial_bytes = 0, stat_mean_bytes = 0, param_partial_bytes = 0, param_sum_bytes = 0;

    std::uint32_t apply_chunk_len() const { return apply_wg * kApplyVpt * (vec4 ? 4u : 1u); }
};

// The backward of a forward run of `layout` under `spec` planned as `forward`, whose statistics
// kernel ran in `forward_windows` windows (slabs; 1 where the backend has none).
BackwardPlan plan_backward(const core::StatLayout& layout, const core::NormSpec& spec, const KernelPlan& forward,
                           std::size_t forward_windows, const PlanDevice& device);

// grad_looped's packs per lane in one tile of its second loop (GLSL), and the most statistics one
// looped owner adds up (its private means).
inline constexpr std::uint32_t kGradLoopedVpt = 8, kGradLoopedMaxRows = 64;

}  // namespace normlab::plan
