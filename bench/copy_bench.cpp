#include "copy_bench.hpp"

#include "normlab/core/error.hpp"

#include <cstring>

namespace normlab {

const std::vector<std::string>& CopyBench::variants() {
    static const std::vector<std::string> v{"shader-v1",       "shader-v2",       "shader-v4",      "shader-v8",
                                            "shader-grid1024", "shader-grid8192", "vkCmdCopyBuffer"};
    return v;
}

CopyBench::CopyBench(const gpu::VulkanContext& ctx) : ctx_(&ctx), recorder_(ctx) {
    if (!ctx.timestamps())
        throw core::DeviceError("normlab-bench needs timestamp queries, which " + ctx.device_name() + " lacks");
}

void CopyBench::ensure(std::uint64_t bytes) {
    if (src_ && src_.size() >= bytes) return;
    for (gpu::GpuBuffer* b : {&src_, &dst_, &host_up_, &host_down_}) *b = gpu::GpuBuffer();  // old memory freed first
    src_ = gpu::GpuBuffer(*ctx_, bytes, gpu::BufferRole::Compute);
    dst_ = gpu::GpuBuffer(*ctx_, bytes, gpu::BufferRole::Compute);
    host_up_ = gpu::GpuBuffer(*ctx_, bytes, gpu::BufferRole::Upload);
    host_down_ = gpu::GpuBuffer(*ctx_, bytes, gpu::BufferRole::Readback);
    vk::CommandBuffer cmd = recorder_.begin();
    for (const gpu::GpuBuffer* b : {&src_, &dst_, &host_up_, &host_down_})  // first touch of the pages
        cmd.fillBuffer(b->handle(), 0, VK_WHOLE_SIZE, b == &src_ ? 0x3c3c3c3cu : 0u);
    recorder_.submit();
}

double CopyBench::transfer_ms(std::uint64_t bytes, bool to_device) {
    ensure(bytes);
    const vk::CommandBuffer cmd = recorder_.begin();  // its first barrier orders the previous copy's writes first
    recorder_.start_timer();
    if (to_device)
        cmd.copyBuffer(host_up_.handle(), dst_.handle(), vk::BufferCopy(0, 0, bytes));
    else
        cmd.copyBuffer(src_.handle(), host_down_.handle(), vk::BufferCopy(0, 0, bytes));
    recorder_.stop_timer();
    return recorder_.submit();
}

double CopyBench::time_ms(std::uint64_t bytes, const std::string& variant) {
    ensure(bytes);
    const vk::CommandBuffer cmd = recorder_.begin();  // its first barrier orders the previous copy's writes first
    recorder_.start_timer();
    if (variant == "vkCmdCopyBuffer") {
        cmd.copyBuffer(src_.handle(), dst_.handle(), vk::BufferCopy(0, 0, bytes));
    } else {
        const bool grid = variant.rfind("shader-grid", 0) == 0;
        const std::uint32_t vec4s =
            grid ? 2u : static_cast<std::uint32_t>(std::stoul(variant.substr(variant.find('v') + 1)));
        auto& k = kernels_[{vec4s, grid ? 1u : 0u}];
        if (!k)
            k = std::make_unique<gpu::ComputeKernel>(*ctx_, "copy.comp", gpu::ShaderMacros{},
                                                     std::vector<std::uint32_t>{256, vec4s, grid ? 1u : 0u}, 2, 8);
        k->bind({src_.handle(), dst_.handle()});
        const std::uint64_t count = bytes / 16;
        const std::uint64_t need = (count + 256ull * vec4s - 1) / (256ull * vec4s);
        const std::uint64_t groups = grid ? std::min<std::uint64_t>(need, std::stoull(variant.substr(11))) : need;
        plan::DispatchGrid g = gpu::group_grid(groups, *ctx_);
        const std::uint32_t push[2] = {static_cast<std::uint32_t>(count), g.x};
        k->dispatch(cmd, push, g.x, g.y);
    }
    recorder_.stop_timer();
    return recorder_.submit();
}

}  // namespace normlab
