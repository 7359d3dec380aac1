// OffscreenTarget: a color image, a render pass and a framebuffer that Dear ImGui's and the
// heatmap's pipelines draw into, and the one render-and-read-back used by both the headless
// figure (normlab-cli --figure) and the app's window capture (--screenshot, F12).
// The render pass matches Dear ImGui's swapchain pass (one subpass, the same dependency), so
// pipelines made for the window's pass draw here too.
#pragma once
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/gpu_buffer.hpp"

#include <functional>
#include <vector>

struct ImDrawData;

namespace normlab::views {

// Records work that must happen before the render pass (compute dispatches, barriers).
using BeforePass = std::function<void(vk::CommandBuffer cmd, vk::Extent2D extent)>;

class OffscreenTarget {
public:
    OffscreenTarget(const gpu::VulkanContext& ctx, vk::Extent2D extent, vk::Format format);

    vk::RenderPass render_pass() const { return *pass_; }
    vk::Extent2D extent() const { return extent_; }
    // Runs before_pass, draws `draw_data` into the image, copies it out and returns the pixels
    // as RGBA8 rows (alpha 255), whatever the image's byte order.
    std::vector<unsigned char> render(ImDrawData* draw_data, const BeforePass& before_pass);

private:
    const gpu::VulkanContext* ctx_;
    vk::Extent2D extent_;
    vk::Format format_;
    vk::raii::Image image_{nullptr};
    vk::raii::DeviceMemory memory_{nullptr};
    vk::raii::ImageView view_{nullptr};
    vk::raii::RenderPass pass_{nullptr};
    vk::raii::Framebuffer framebuffer_{nullptr};
    gpu::GpuBuffer readback_;
    gpu::CommandRecorder recorder_;
};

}  // namespace normlab::views
