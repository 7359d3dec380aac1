#include "copy_bench.hpp"

#include "normlab/error.hpp"

#include <cstring>

namespace normlab {

const std::vector<std::string>& CopyBench::variants() {
    static const std::vector<std::string> v{"shader-v1", "shader-v2", "shader-v4", "shader-v8", "vkCmdCopyBuffer"};
    return v;
}

CopyBench::CopyBench(const VulkanContext& ctx) : ctx_(&ctx) {
    if (!ctx.timestamps()) throw DeviceError("normlab-bench needs timestamp queries, which " + ctx.device_name() + " lacks");
    pool_ = vk::raii::CommandPool(ctx.device(), vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                                                         ctx.queue_family()));
    vk::raii::CommandBuffers bufs(ctx.device(), vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 1));
    cmd_ = std::move(bufs.front());
    queries_ = vk::raii::QueryPool(ctx.device(), vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2));
}

double CopyBench::time_ms(std::uint64_t bytes, const std::string& variant) {
    if (!src_ || src_.size() < bytes) {
        src_ = GpuBuffer();
        dst_ = GpuBuffer();
        src_ = GpuBuffer(*ctx_, bytes, BufferKind::Device);
        dst_ = GpuBuffer(*ctx_, bytes, BufferKind::Device);
        if (src_.mappable()) std::memset(src_.data(), 0x3c, bytes);
    }
    const vk::CommandBuffer cmd = *cmd_;
    cmd.reset();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    cmd.resetQueryPool(*queries_, 0, 2);
    cmd.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *queries_, 0);
    if (variant == "vkCmdCopyBuffer") {
        cmd.copyBuffer(src_.handle(), dst_.handle(), vk::BufferCopy(0, 0, bytes));
    } else {
        const std::uint32_t vec4s = static_cast<std::uint32_t>(std::stoul(variant.substr(variant.find('v') + 1)));
        auto& k = kernels_[vec4s];
        if (!k) k = std::make_unique<ComputeKernel>(*ctx_, "copy.comp", ShaderMacros{}, std::vector<std::uint32_t>{256, vec4s}, 2, 8);
        k->bind({src_.handle(), dst_.handle()});
        const std::uint64_t count = bytes / 16;
        GroupGrid g = group_grid((count + 256ull * vec4s - 1) / (256ull * vec4s), *ctx_);
        const std::uint32_t push[2] = {static_cast<std::uint32_t>(count), g.x};
        k->dispatch(cmd, push, g.x, g.y);
    }
    cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 1);
    cmd.end();
    ctx_->submit_and_wait(cmd);
    auto [res, ts] = queries_.getResults<std::uint64_t>(0, 2, 16, 8, vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
    (void)res;
    return static_cast<double>(ts[1] - ts[0]) * ctx_->timestamp_period_ns() * 1e-6;
}

}  // namespace normlab
