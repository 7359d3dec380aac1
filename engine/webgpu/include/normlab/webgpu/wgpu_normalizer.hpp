// WgpuNormalizer: runs a NormSpec on a tensor with the WGSL kernels and reads back y and every
// statistic, as the Vulkan Normalizer does (the same NormResult, so stats_json serves both).
// Driven only by StatLayout's strides. Kernel plan: normlab/plan/kernel_plan.hpp (plan_forward, the
// one plan of every backend) over the WGSL kernels' traits and this adapter's limits (plan_device()):
// fused (norm_stats.wgsl), looped (norm_looped.wgsl; on a CPU-emulated adapter, WgpuContext::cpu_emulated,
// always where a statistic is long) or split (norm_partial.wgsl, norm_merge.wgsl, norm_apply.wgsl);
// layouts whose runs are whole vec4s take 16-byte accesses (pack4.wgsl); BatchNorm eval with
// running statistics runs norm_apply.wgsl alone. No subgroup kernels.
// Tensors and buffers beyond maxStorageBufferBindingSize are refused with the limit named (the
// Vulkan path's slabs are not here). One device: spec.sync_devices is plain BatchNorm here, as in the
// Vulkan Normalizer; WgpuSyncBatchNorm runs SyncBN on this normalizer. x and y stay on the
// device between runs (buffers()): a run with RunOptions::reuse_x does not upload x again, and
// one with read_y false reads back only the statistics.
#pragma once
#include "normlab/plan/compute_backend.hpp"  // RunOptions
#include "normlab/plan/kernel_plan.hpp"
#include "normlab/core/norm_params.hpp"
#include "normlab/webgpu/wgpu_buffer.hpp"
#include "normlab/webgpu/wgpu_kernels.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace normlab::webgpu {

class BindGroup;  // wgpu_dispatch.hpp

// How long statistics run: as the adapter suits (Auto; a CPU-emulated adapter loops also over
// statistics of 1024 accesses or more that fit the fused kernel), or forced: Split, the GPU's
// plan (fused where a statistic fits, else split), or Looped (statistics too long for the fused
// kernel). The page's kernel test runs both plans on every adapter, the bench times both.
using LongStats = plan::ForcedPath;

class WgpuNormalizer {
public:
    static constexpr std::uint32_t kApplyWg = plan::kApplyWg, kApplyVpt = plan::kApplyVpt;
    // γ/β values on the device: P rounded up to whole vec4s (the kernels read them as vec4s).
    static constexpr std::size_t padded_params(std::size_t P) { return (P + 3) / 4 * 4; }
    explicit WgpuNormalizer(WgpuContext& ctx);

    // Validates everything (InputError with PyTorch's wording), runs on the GPU, reads back.
    core::NormResult run(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params = {},
                         const plan::RunOptions& options = {});
    // Puts two given tensors of one shape on the device as x and y, without normalizing.
    void load_values(const core::Tensor& x, const core::Tensor& y);
    plan::KernelPlan plan(const core::StatLayout& layout, const core::NormSpec& spec) const;
    // What every plan is made under: the WGSL kernels' traits, the largest reduction workgroup, a
    // CPU-emulated adapter, the forced paths (set_long_stats, set_grad_path).
    plan::PlanDevice plan_device() const;
    void set_long_stats(LongStats l) { long_stats_ = l; }
    // The backward's looped kernel (normlab/plan/backward_plan.hpp): the adapter's choice (Auto),
    // forced (Looped, also where the forward fused) or kept off (Split).
    void set_grad_path(plan::ForcedPath p) { grad_path_ = p; }
    // Throws InputError naming the limit when a tensor of this shape cannot be bound at once.
    void check_capacity(const core::Shape4& shape) const;
    const WgpuContext& context() const { return *ctx_; }
    std::size_t pipelines_built() const { return kernels_.pipelines_built(); }

    // For the ops that work on a run's buffers (WgpuBackward): what the last run left on the
    // device, null when there was none; its x, γ, statistics (K, mean − K, var, rstd) and y (the
    // WgpuHistogram and WgpuHeatmap read x and y there); the
    // pipelines, the staging buffers and the largest reduction workgroup every plan is made under.
    struct Last {
        core::StatLayout layout;
        core::NormSpec spec;
        plan::KernelPlan plan;
    };
    const Last* last_run() const { return last_ ? &*last_ : nullptr; }
    struct Buffers {
        const WgpuBuffer &x, &weight, &stats, &y;
    };
    Buffers buffers() const { return {x_, w_, stats_, y_}; }
    WgpuContext& context() { return *ctx_; }
    WgpuKernels& kernels() { return kernels_; }
    std::vector<WgpuBuffer>& staging() { return staging_; }
    std::uint32_t wg_max() const { return wg_max_; }

private:
    std::optional<Last> last_;
    LongStats long_stats_ = LongStats::Auto;
    plan::ForcedPath grad_path_ = plan::ForcedPath::Auto;
    std::optional<core::Shape4> x_loaded_;  // the shape of the x now in x_ (reuse_x)
    std::int64_t x_nonfinite_ = 0;          // that x's count_nonfinite (a reuse_x run does not count again)
    // The layout of a valid run (InputError otherwise: data size, parameters, capacity).
    core::StatLayout checked_layout(const core::Tensor& x, const core::NormSpec& spec,
                                    const core::NormParams& params) const;
    void ensure_buffers(std::uint64_t bytes, std::uint64_t param_bytes, std::uint64_t stat_bytes,
                        std::uint64_t partial_bytes);
    // Records the plan's passes over the three bind groups (statistics, merge, apply) and submits.
    void submit(const plan::KernelPlan& pl, const BindGroup* groups, bool rms, std::uint64_t S);
    WgpuContext* ctx_;
    WgpuKernels kernels_;
    std::uint32_t wg_max_ = 256;
    WgpuBuffer x_, y_, w_, b_, stats_, partials_, uniform_stats_, uniform_merge_, uniform_apply_;
    std::vector<WgpuBuffer> staging_;
};

// set_long_stats(l) for this object's scope, the adapter's own choice (Auto) again however the
// scope ends: the kernel test and the bench time or check the plan the adapter did not choose.
class ScopedLongStats {
public:
    ScopedLongStats(WgpuNormalizer& n, LongStats l) : n_(n) { n_.set_long_stats(l); }
    ~ScopedLongStats() { n_.set_long_stats(LongStats::Auto); }
    ScopedLongStats(const ScopedLongStats&) = delete;
    ScopedLongStats& operator=(const ScopedLongStats&) = delete;

private:
    WgpuNormalizer& n_;
};

// set_grad_path(p) for this object's scope, Auto again however the scope ends.
class ScopedGradPath {
public:
    ScopedGradPath(WgpuNormalizer& n, plan::ForcedPath p) : n_(n) { n_.set_grad_path(p); }
    ~ScopedGradPath() { n_.set_grad_path(plan::ForcedPath::Auto); }
    ScopedGradPath(const ScopedGradPath&) = delete;
    ScopedGradPath& operator=(const ScopedGradPath&) = delete;

private:
    WgpuNormalizer& n_;
};

}  // namespace normlab::webgpu
