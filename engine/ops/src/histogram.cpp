#include "normlab/ops/histogram.hpp"

#include <algorithm>
#include <string>

namespace normlab::ops {
namespace {

constexpr std::uint32_t kWg = 256;  // histogram.comp's local size
static_assert(plan::kHistogramChunkLen % kWg == 0);

}  // namespace

Histogram::Histogram(const gpu::VulkanContext& ctx) : ctx_(&ctx), recorder_(ctx) {
    if (ctx.subgroup_arithmetic()) macros_.emplace_back("NL_SUBGROUP_ARITH", "1");
    result_ = gpu::GpuBuffer(ctx, 32, gpu::BufferRole::Compute);
    bins_ = gpu::GpuBuffer(ctx, kMaxBins * 4, gpu::BufferRole::Compute);
    down_ = gpu::GpuBuffer(ctx, 32 + kMaxBins * 4, gpu::BufferRole::Readback);
}

gpu::ComputeKernel& Histogram::kernel(int pass, bool diff) {
    auto& k = kernels_[{pass, diff}];
    if (!k) {
        gpu::ShaderMacros m = macros_;
        m.emplace_back("PASS", std::to_string(pass));
        if (diff) m.emplace_back("DIFF", "1");
        k = std::make_unique<gpu::ComputeKernel>(*ctx_, "histogram.comp", m, std::vector<std::uint32_t>{kWg}, 5,
                                                 plan::kHistogramPushBytes);
    }
    return *k;
}

plan::HistogramResult Histogram::run(const gpu::GpuBuffer& values, const plan::ElementSet& set, std::uint32_t bins,
                                     const gpu::GpuBuffer* subtract) {
    plan::check_histogram(set, bins, values.size(), subtract ? std::max<vk::DeviceSize>(subtract->size(), 1) : 0);
    const bool diff = subtract != nullptr;

    plan::HistogramResult r;
    r.bins.assign(bins, 0);
    if (set.count() == 0) return r;

    const plan::HistogramPlan plan = plan::plan_histogram(set, bins, ctx_->limits().maxComputeWorkGroupCount[0],
                                                          ctx_->limits().maxComputeWorkGroupCount[1]);
    const vk::DeviceSize part_bytes = plan.partial_bytes;
    if (!partials_ || partials_.size() < part_bytes) {
        partials_ = gpu::GpuBuffer();
        partials_ = gpu::GpuBuffer(*ctx_, part_bytes, gpu::BufferRole::Compute);
    }
    const plan::DispatchGrid g = plan.grid;
    const plan::HistogramParams& push = plan.params;
    const std::vector<vk::Buffer> bindings{values.handle(), partials_.handle(), result_.handle(), bins_.handle(),
                                           (diff ? *subtract : values).handle()};

    const vk::CommandBuffer cmd = recorder_.begin();
    recorder_.start_timer();
    cmd.fillBuffer(bins_.handle(), 0, kMaxBins * 4, 0u);
    auto& k0 = kernel(0, diff);
    k0.bind(bindings);
    k0.dispatch(cmd, &push, g.x, g.y);
    // Orders the partials written by pass 0 before the merge (pass 1) reads them.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                        vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead);
    auto& k1 = kernel(1, diff);
    k1.bind(bindings);
    k1.dispatch(cmd, &push, 1);
    // Orders the merged min/max (pass 1) and the zeroed bins (fill) before pass 2 reads and adds to them.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                        vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
                        vk::PipelineStageFlagBits::eComputeShader,
                        vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite);
    auto& k2 = kernel(2, diff);
    k2.bind(bindings);
    k2.dispatch(cmd, &push, g.x, g.y);
    recorder_.stop_timer();
    // Orders the result and bin writes before the copies to the readback buffer.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                        vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferRead);
    cmd.copyBuffer(result_.handle(), down_.handle(), vk::BufferCopy(0, 0, 32));
    cmd.copyBuffer(bins_.handle(), down_.handle(), vk::BufferCopy(0, 32, bins * 4));
    // Makes the copies visible to the host's reads after the fence.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                        vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
    const double gpu_ms = recorder_.submit();
    r = plan::unpack_histogram(static_cast<const float*>(down_.data()),
                               reinterpret_cast<const std::uint32_t*>(static_cast<const char*>(down_.data()) + 32),
                               bins);
    r.gpu_ms = gpu_ms;
    return r;
}

}  // namespace normlab::ops
