#include "gpu_upload.hpp"

#include <cstring>

namespace normlab::app {

void upload_buffer(const VulkanContext& ctx, GpuBuffer& dst, const void* src, std::size_t bytes) {
    const vk::DeviceSize want = bytes == 0 ? 4 : bytes;
    if (!dst || dst.size() != want) dst = GpuBuffer(ctx, bytes, BufferKind::Device);  // a failed allocation keeps the old one
    if (bytes == 0) return;
    if (dst.mappable()) {
        std::memcpy(dst.data(), src, bytes);  // host writes before a submission are visible to it
        return;
    }
    GpuBuffer staging(ctx, bytes, BufferKind::Staging);
    std::memcpy(staging.data(), src, bytes);
    vk::raii::CommandPool pool(ctx.device(), vk::CommandPoolCreateInfo({}, ctx.queue_family()));
    vk::raii::CommandBuffers cmds(ctx.device(), vk::CommandBufferAllocateInfo(*pool, vk::CommandBufferLevel::ePrimary, 1));
    vk::CommandBuffer cmd = *cmds[0];
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    cmd.copyBuffer(staging.handle(), dst.handle(), vk::BufferCopy(0, 0, bytes));
    // Orders the copy before every later shader (heatmap, histogram, drawing) reads the buffer.
    vk::MemoryBarrier mb(vk::AccessFlagBits::eTransferWrite, vk::AccessFlagBits::eShaderRead);
    cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer,
                        vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eFragmentShader, {}, mb, {}, {});
    cmd.end();
    ctx.submit_and_wait(cmd);
}

}  // namespace normlab::app
