#include "normlab/views/offscreen.hpp"

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>

#include <array>

namespace normlab::views {

OffscreenTarget::OffscreenTarget(const gpu::VulkanContext& ctx, vk::Extent2D extent, vk::Format format)
    : ctx_(&ctx), extent_(extent), format_(format), recorder_(ctx) {
    const auto& dev = ctx.device();
    image_ = vk::raii::Image(
        dev, vk::ImageCreateInfo({}, vk::ImageType::e2D, format, vk::Extent3D(extent, 1), 1, 1,
                                 vk::SampleCountFlagBits::e1, vk::ImageTiling::eOptimal,
                                 vk::ImageUsageFlagBits::eColorAttachment | vk::ImageUsageFlagBits::eTransferSrc));
    auto req = image_.getMemoryRequirements();
    memory_ = vk::raii::DeviceMemory(
        dev, vk::MemoryAllocateInfo(req.size,
                                    ctx.memory_type(req.memoryTypeBits, {}, vk::MemoryPropertyFlagBits::eDeviceLocal)));
    image_.bindMemory(*memory_, 0);
    view_ = vk::raii::ImageView(
        dev, vk::ImageViewCreateInfo({}, *image_, vk::ImageViewType::e2D, format, {},
                                     vk::ImageSubresourceRange(vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1)));
    // Ends in COLOR_ATTACHMENT_OPTIMAL like Dear ImGui's swapchain pass (render() moves the
    // image to TRANSFER_SRC with an explicit barrier).
    vk::AttachmentDescription att({}, format, vk::SampleCountFlagBits::e1, vk::AttachmentLoadOp::eClear,
                                  vk::AttachmentStoreOp::eStore, vk::AttachmentLoadOp::eDontCare,
                                  vk::AttachmentStoreOp::eDontCare, vk::ImageLayout::eUndefined,
                                  vk::ImageLayout::eColorAttachmentOptimal);
    vk::AttachmentReference ref(0, vk::ImageLayout::eColorAttachmentOptimal);
    vk::SubpassDescription subpass({}, vk::PipelineBindPoint::eGraphics, {}, ref);
    // Orders earlier work before this pass writes the attachment (the same dependency as ImGui's pass).
    vk::SubpassDependency dep(VK_SUBPASS_EXTERNAL, 0, vk::PipelineStageFlagBits::eColorAttachmentOutput,
                              vk::PipelineStageFlagBits::eColorAttachmentOutput, {},
                              vk::AccessFlagBits::eColorAttachmentWrite);
    pass_ = vk::raii::RenderPass(dev, vk::RenderPassCreateInfo({}, att, subpass, dep));
    vk::ImageView iv = *view_;
    framebuffer_ =
        vk::raii::Framebuffer(dev, vk::FramebufferCreateInfo({}, *pass_, iv, extent.width, extent.height, 1));
    readback_ =
        gpu::GpuBuffer(ctx, static_cast<vk::DeviceSize>(extent.width) * extent.height * 4, gpu::BufferRole::Readback);
}

std::vector<unsigned char> OffscreenTarget::render(ImDrawData* draw_data, const BeforePass& before_pass) {
    // The recorder's first barrier orders the previous render's copy out of the image before
    // this pass writes it again.
    const vk::CommandBuffer cmd = recorder_.begin();
    if (before_pass) before_pass(cmd, extent_);
    vk::ClearValue clear(vk::ClearColorValue(std::array<float, 4>{0.06f, 0.06f, 0.07f, 1.0f}));
    cmd.beginRenderPass(vk::RenderPassBeginInfo(*pass_, *framebuffer_, vk::Rect2D({0, 0}, extent_), clear),
                        vk::SubpassContents::eInline);
    ImGui_ImplVulkan_RenderDrawData(draw_data, cmd);
    cmd.endRenderPass();
    vk::ImageMemoryBarrier to_src(vk::AccessFlagBits::eColorAttachmentWrite, vk::AccessFlagBits::eTransferRead,
                                  vk::ImageLayout::eColorAttachmentOptimal, vk::ImageLayout::eTransferSrcOptimal,
                                  VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, *image_,
                                  vk::ImageSubresourceRange(vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1));
    // Orders the pass's color writes before the copy reads the image (and moves it to TRANSFER_SRC).
    cmd.pipelineBarrier(vk::PipelineStageFlagBits::eColorAttachmentOutput, vk::PipelineStageFlagBits::eTransfer, {}, {},
                        {}, to_src);
    cmd.copyImageToBuffer(
        *image_, vk::ImageLayout::eTransferSrcOptimal, readback_.handle(),
        vk::BufferImageCopy(0, 0, 0, vk::ImageSubresourceLayers(vk::ImageAspectFlagBits::eColor, 0, 0, 1), {0, 0, 0},
                            vk::Extent3D(extent_, 1)));
    // Makes the copied pixels visible to the host's read after the fence.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                        vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
    recorder_.submit();

    const auto* src = static_cast<const unsigned char*>(readback_.data());
    std::vector<unsigned char> rgba(src, src + static_cast<std::size_t>(extent_.width) * extent_.height * 4);
    const bool bgra = format_ == vk::Format::eB8G8R8A8Unorm || format_ == vk::Format::eB8G8R8A8Srgb;
    for (std::size_t i = 0; i < rgba.size(); i += 4) {
        if (bgra) std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255;
    }
    return rgba;
}

}  // namespace normlab::views
