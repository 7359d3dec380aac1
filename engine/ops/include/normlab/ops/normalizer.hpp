// Normalizer: runs a NormSpec on a tensor with the compute shaders and reads back y and
// every statistic. Kernels, buffers and command buffers are kept between runs, so the app
// can recompute on every state change without re-creating anything of the same size.
//
// Kernel plan: normlab/plan/kernel_plan.hpp (plan_forward, the one plan of every backend) over
// this device's PlanDevice (plan_device()): subgroup-owned, fused, looped or split statistics.
// Tensors beyond maxStorageBufferRange run in slabs (slab_plan.hpp), one submit per slab.
//
// x and y stay on the device between runs (x_buffer(), y_buffer()): the app's heatmap and
// histogram shaders read them there, and a run with RunOptions::reuse_x does not upload x
// again. A run reads back the statistics, and y unless RunOptions::read_y is false.
#pragma once
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/plan/compute_backend.hpp"  // RunOptions
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/kernel_cache.hpp"
#include "normlab/gpu/gpu_buffer.hpp"
#include "normlab/plan/kernel_plan.hpp"
#include "normlab/core/norm_params.hpp"
#include "normlab/plan/slab_plan.hpp"
#include "normlab/gpu/staging.hpp"
#include "normlab/gpu/vk_context.hpp"

#include <optional>
#include <memory>

namespace normlab::ops {

class Normalizer {
public:
    static constexpr std::uint32_t kMaxVpt = 32;
    explicit Normalizer(const gpu::VulkanContext& ctx);

    // Validates everything (throws InputError with PyTorch's wording), runs on the GPU.
    core::NormResult run(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params = {},
                         const plan::RunOptions& options = {});
    // Puts two given tensors of one shape on the device as x and y, without normalizing.
    void load_values(const core::Tensor& x, const core::Tensor& y);

    // The device buffers of the last run's x and y (at least numel·4 bytes; they may be
    // re-created by the next run or load_values).
    const gpu::GpuBuffer& x_buffer() const { return x_; }
    const gpu::GpuBuffer& y_buffer() const { return y_; }

    // The plan of a run on this device (plan_forward), before slabs: a tensor in slabs may run
    // neither fused nor looped (the run's own plan is last_run()->plan).
    plan::KernelPlan plan(const core::StatLayout& layout, const core::NormSpec& spec) const;
    // Whether the last completed run's split statistics ran looped (one owner per statistic
    // walking all its chunks, normlab/plan/looped_forward.hpp) instead of partials + merge + apply.
    bool last_run_looped() const;
    // Throws InputError naming the limit when a tensor of this shape does not fit the device.
    void check_capacity(const core::Shape4& shape) const;
    const gpu::VulkanContext& context() const { return *ctx_; }

    // For the ops that work on a run's buffers (Backward): what the last completed run prepared
    // (layout, plan, slabs, push constants; normalizer_detail.hpp), null when there was none.
    struct Prepared;
    const Prepared* last_run() const { return last_.get(); }
    // The device buffers of the last run: x, y, γ, β and the statistics (K, mean − K, var, rstd).
    struct Buffers {
        const gpu::GpuBuffer &x, &y, &weight, &bias, &stats;
    };
    Buffers buffers() const { return {x_, y_, w_, b_, stats_}; }
    // What every plan is made under (normlab/plan/kernel_plan.hpp): the GLSL kernels' traits, the
    // largest workgroup (a power of two, NORMLAB_WG_MAX applied), the subgroup size, whether
    // subgroups may own statistics or chunks, a CPU device, and the forced paths
    // (NORMLAB_NORM_LOOPED, NORMLAB_GRAD_LOOPED: 1 looped, anything else split).
    plan::PlanDevice plan_device() const;
    std::int64_t max_binding_elements() const;  // maxStorageBufferRange in floats (or the tests' override)
    std::int64_t binding_alignment() const;     // window start alignment in floats
    const gpu::ShaderMacros& macros() const { return kernels_.macros(); }
    // The normalizer's command recorder and staging buffers, shared by the ops on its buffers.
    gpu::CommandRecorder& recorder() { return recorder_; }
    gpu::Staging& staging() { return staging_; }

private:
    struct Passes;  // records the statistics, merge and apply passes of one run (normalizer.cpp)
    Prepared prepare(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params) const;
    void fill_inputs(Prepared& p, const core::Tensor& x, const core::NormParams& params) const;
    void check_bindings(const Prepared& p) const;
    void upload(const Prepared& p, const core::Tensor& x, bool upload_x);
    double dispatch(const Prepared& p);
    void read_back(const Prepared& p, core::NormResult& r, bool read_y);
    gpu::GpuBuffer& ensure(gpu::GpuBuffer& buf, vk::DeviceSize bytes);

    const gpu::VulkanContext* ctx_;
    bool subgroup_owners_ = true;  // subgroups may own statistics or chunks
    std::uint32_t wg_cap_ = 256;   // largest reduction workgroup (NORMLAB_WG_MAX)
    plan::ForcedPath forward_path_ = plan::ForcedPath::Auto, backward_path_ = plan::ForcedPath::Auto;
    gpu::KernelCache kernels_;
    gpu::GpuBuffer x_, y_, w_, b_, stats_, partials_;
    std::optional<core::Shape4> x_loaded_;  // the shape of the x now in x_ (reuse_x)
    std::int64_t x_nonfinite_ = 0;          // that x's count_nonfinite (a reuse_x run does not count again)
    std::shared_ptr<const Prepared> last_;  // the last completed run (its statistics are in stats_)
    gpu::CommandRecorder recorder_;
    gpu::Staging staging_;
};

}  // namespace normlab::ops
