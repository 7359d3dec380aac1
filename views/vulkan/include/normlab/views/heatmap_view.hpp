// HeatmapView: the desktop's heatmap — HeatmapPanel (heatmap_panel.hpp: the ImGui part) drawing
// through VulkanHeatmapImage. That image's compute shader (shaders/heatmap.comp) fills a pixel
// buffer at screen resolution whenever the picture changes (data, mode, selection, colours or size);
// a small graphics pipeline copies it into the ImGui window through an ImDrawList callback (ImGui
// 1.86's Vulkan backend ignores texture ids).
#pragma once
#include "normlab/views/heatmap_image.hpp"
#include "normlab/views/heatmap_panel.hpp"

#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/gpu_buffer.hpp"

#include <memory>
#include <vector>

struct ImDrawList;
struct ImDrawCmd;

namespace normlab::views {

class VulkanHeatmapImage : public HeatmapImage {
public:
    VulkanHeatmapImage(const gpu::VulkanContext& ctx, vk::RenderPass render_pass);
    // Uploads the colours when they changed and adds the draw callback to the window's draw list.
    void draw(const HeatmapPicture& picture, ImVec2 origin, ImVec2 size) override;
    // Records the fill when the picture changed and remembers `cmd` for drawing.
    void before_pass(vk::CommandBuffer cmd, vk::Extent2D extent);

private:
    static void draw_callback(const ImDrawList* list, const ImDrawCmd* cmd);
    void record_draw(const ImDrawCmd* dc) const;
    void upload_colors(const HeatmapPicture& p);
    void update_draw_set();

    const gpu::VulkanContext* ctx_;
    gpu::ComputeKernel fill_;
    gpu::CommandRecorder recorder_;  // the fill runs in its own submission, before the frame's
    gpu::GpuBuffer pixels_, palette_, lut_;
    std::uint64_t palette_generation_ = ~0ull;
    int lut_map_ = -1;
    int palette_id_ = -1;
    vk::raii::DescriptorSetLayout set_layout_{nullptr};
    vk::raii::PipelineLayout pipeline_layout_{nullptr};
    vk::raii::Pipeline pipeline_{nullptr};
    vk::raii::DescriptorPool pool_{nullptr};
    vk::raii::DescriptorSet set_{nullptr};

    float origin_[2] = {0, 0};         // ImGui units
    HeatmapPicture asked_, computed_;  // this frame's picture, and the one in pixels_
    // Per frame: the command buffer the ImGui draw callback records into.
    vk::CommandBuffer frame_cmd_{};
    vk::Extent2D frame_extent_{};
};

class HeatmapView : public HeatmapPanel {
public:
    HeatmapView(const gpu::VulkanContext& ctx, vk::RenderPass render_pass)
        : HeatmapView(std::make_unique<VulkanHeatmapImage>(ctx, render_pass)) {}
    void before_pass(vk::CommandBuffer cmd, vk::Extent2D extent) { vulkan_->before_pass(cmd, extent); }

private:
    explicit HeatmapView(std::unique_ptr<VulkanHeatmapImage> image)
        : HeatmapPanel(std::move(image)), vulkan_(static_cast<VulkanHeatmapImage*>(&this->image())) {}
    VulkanHeatmapImage* vulkan_;
};

// Makes VulkanHeatmapImages for a view that holds several HeatmapPanels (the compare view) and
// records each one's fill before the frame's pass. The images are the panels'; the set outlives none.
class VulkanImageSet {
public:
    VulkanImageSet(const gpu::VulkanContext& ctx, vk::RenderPass render_pass) : ctx_(&ctx), render_pass_(render_pass) {}
    std::unique_ptr<HeatmapImage> make() {
        auto image = std::make_unique<VulkanHeatmapImage>(*ctx_, render_pass_);
        made_.push_back(image.get());
        return image;
    }
    void before_pass(vk::CommandBuffer cmd, vk::Extent2D extent) {
        for (auto* image : made_) image->before_pass(cmd, extent);
    }

private:
    const gpu::VulkanContext* ctx_;
    vk::RenderPass render_pass_;
    std::vector<VulkanHeatmapImage*> made_;
};

}  // namespace normlab::views
