#include "normlab/views/heatmap_view.hpp"

#include "normlab/views/gpu_upload.hpp"
#include "normlab/gpu/shader_library.hpp"
#include "normlab/ops/vulkan_backend.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace normlab::views {
namespace {

// Mirrors `Push` in shaders/heatmap_draw.vert/.frag.
struct DrawPush {
    float rect[4];
    std::int32_t origin[2];
    std::uint32_t img_w, img_h;
};
static_assert(sizeof(DrawPush) == 32);

vk::raii::ShaderModule module(const gpu::VulkanContext& ctx, const char* name) {
    const auto& spirv = gpu::compiled_shader(name);
    return vk::raii::ShaderModule(ctx.device(), vk::ShaderModuleCreateInfo({}, spirv.size() * 4, spirv.data()));
}

}  // namespace

VulkanHeatmapImage::VulkanHeatmapImage(const gpu::VulkanContext& ctx, vk::RenderPass render_pass)
    : ctx_(&ctx), fill_(ctx, kFillShader, {}, {}, kFillBindings, sizeof(plan::HeatmapFillParams)), recorder_(ctx) {
    const auto& dev = ctx.device();
    vk::DescriptorSetLayoutBinding b(0, vk::DescriptorType::eStorageBuffer, 1, vk::ShaderStageFlagBits::eFragment);
    set_layout_ = vk::raii::DescriptorSetLayout(dev, vk::DescriptorSetLayoutCreateInfo({}, b));
    vk::PushConstantRange range(vk::ShaderStageFlagBits::eVertex | vk::ShaderStageFlagBits::eFragment, 0,
                                sizeof(DrawPush));
    vk::DescriptorSetLayout sl = *set_layout_;
    pipeline_layout_ = vk::raii::PipelineLayout(dev, vk::PipelineLayoutCreateInfo({}, sl, range));

    auto vert = module(ctx, "heatmap_draw.vert");
    auto frag = module(ctx, "heatmap_draw.frag");
    std::array<vk::PipelineShaderStageCreateInfo, 2> stages{
        vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eVertex, *vert, "main"),
        vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eFragment, *frag, "main")};
    vk::PipelineVertexInputStateCreateInfo vertex_input;
    vk::PipelineInputAssemblyStateCreateInfo assembly({}, vk::PrimitiveTopology::eTriangleList);
    vk::PipelineViewportStateCreateInfo viewport({}, 1, nullptr, 1, nullptr);
    vk::PipelineRasterizationStateCreateInfo raster({}, false, false, vk::PolygonMode::eFill,
                                                    vk::CullModeFlagBits::eNone, vk::FrontFace::eCounterClockwise,
                                                    false, 0, 0, 0, 1.0f);
    vk::PipelineMultisampleStateCreateInfo multisample({}, vk::SampleCountFlagBits::e1);
    vk::PipelineColorBlendAttachmentState blend_att(false);
    blend_att.colorWriteMask = vk::ColorComponentFlagBits::eR | vk::ColorComponentFlagBits::eG |
                               vk::ColorComponentFlagBits::eB | vk::ColorComponentFlagBits::eA;
    vk::PipelineColorBlendStateCreateInfo blend({}, false, vk::LogicOp::eCopy, blend_att);
    std::array<vk::DynamicState, 2> dyn{vk::DynamicState::eViewport, vk::DynamicState::eScissor};
    vk::PipelineDynamicStateCreateInfo dynamic({}, dyn);
    // Subpass 0 of ImGui's render pass (and of the compatible offscreen capture pass).
    vk::GraphicsPipelineCreateInfo info({}, stages, &vertex_input, &assembly, nullptr, &viewport, &raster, &multisample,
                                        nullptr, &blend, &dynamic, *pipeline_layout_, render_pass, 0);
    pipeline_ = vk::raii::Pipeline(dev, ctx.pipeline_cache(), info);

    vk::DescriptorPoolSize ps(vk::DescriptorType::eStorageBuffer, 1);
    pool_ = vk::raii::DescriptorPool(
        dev, vk::DescriptorPoolCreateInfo(vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 1, ps));
    vk::raii::DescriptorSets sets(dev, vk::DescriptorSetAllocateInfo(*pool_, sl));
    set_ = std::move(sets.front());
}

void VulkanHeatmapImage::upload_colors(const HeatmapPicture& p) {
    const int pid = static_cast<int>(p.palette);
    if (palette_generation_ == p.generation && lut_map_ == static_cast<int>(p.colormap) && palette_id_ == pid) return;
    ctx_->device().waitIdle();  // a frame in flight may still read the old colors
    if (palette_generation_ != p.generation || palette_id_ != pid) {
        palette_id_ = pid;
        const std::vector<float> pal = palette_rgba(p.shown->layout().stat_count, p.palette);
        upload_buffer(*ctx_, palette_, pal.data(), pal.size() * 4);
        palette_generation_ = p.generation;
    }
    if (lut_map_ != static_cast<int>(p.colormap)) {
        const std::vector<float> lut = lut_rgba(p.colormap);
        upload_buffer(*ctx_, lut_, lut.data(), lut.size() * 4);
        lut_map_ = static_cast<int>(p.colormap);
    }
}

void VulkanHeatmapImage::draw(const HeatmapPicture& picture, ImVec2 origin, ImVec2) {
    asked_ = picture;
    origin_[0] = origin.x;
    origin_[1] = origin.y;
    upload_colors(picture);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddCallback(&VulkanHeatmapImage::draw_callback, this);
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void VulkanHeatmapImage::update_draw_set() {
    vk::DescriptorBufferInfo bi(pixels_.handle(), 0, VK_WHOLE_SIZE);
    vk::WriteDescriptorSet w(*set_, 0, 0, 1, vk::DescriptorType::eStorageBuffer, nullptr, &bi);
    ctx_->device().updateDescriptorSets(w, {});
}

void VulkanHeatmapImage::before_pass(vk::CommandBuffer cmd, vk::Extent2D extent) {
    frame_cmd_ = cmd;
    frame_extent_ = extent;
    if (!asked_.shown || asked_ == computed_) return;
    const session::ShownTensors& s = *asked_.shown;
    const plan::HeatmapFillParams& push = asked_.push;
    const vk::DeviceSize bytes = static_cast<vk::DeviceSize>(push.img_w) * static_cast<vk::DeviceSize>(push.img_h) * 4;
    bool rebind = asked_.generation != computed_.generation || asked_.buffer_epoch != computed_.buffer_epoch ||
                  asked_.colormap != computed_.colormap || asked_.palette != computed_.palette;
    if (!pixels_ || pixels_.size() < bytes) {  // a zoomed window no larger than the last is filled in place
        ctx_->device().waitIdle();             // frames in flight may still draw from the old pixels
        pixels_ = gpu::GpuBuffer();
        pixels_ = gpu::GpuBuffer(*ctx_, bytes, gpu::BufferRole::Compute);
        update_draw_set();
        rebind = true;
    }

    // The descriptor set is rewritten only when its buffers changed (the fill's earlier
    // submissions have all finished; every buffer change happens after the device was idled).
    if (rebind)
        fill_.bind({ops::vulkan_buffer(s.x_device()).handle(), ops::vulkan_buffer(s.y_device()).handle(),
                    palette_.handle(), lut_.handle(), pixels_.handle()});
    // The fill is its own submission: the recorder's first barrier orders earlier frames'
    // fragment-shader reads of the pixels (same queue) before the fill overwrites them.
    vk::CommandBuffer fill_cmd = recorder_.begin();
    fill_.dispatch(fill_cmd, &push, fill_workgroups(static_cast<int>(push.img_w)),
                   fill_workgroups(static_cast<int>(push.img_h)));
    recorder_.submit();
    // Orders the fill's writes before this frame's fragment shader reads the pixels.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                        vk::PipelineStageFlagBits::eFragmentShader, vk::AccessFlagBits::eShaderRead);
    computed_ = asked_;
}

void VulkanHeatmapImage::draw_callback(const ImDrawList*, const ImDrawCmd* dc) {
    static_cast<const VulkanHeatmapImage*>(dc->UserCallbackData)->record_draw(dc);
}

void VulkanHeatmapImage::record_draw(const ImDrawCmd* dc) const {
    if (!frame_cmd_ || !pixels_) return;
    const ImDrawData* dd = ImGui::GetDrawData();
    const float sx = dd->FramebufferScale.x, sy = dd->FramebufferScale.y;
    const float fw = static_cast<float>(frame_extent_.width), fh = static_cast<float>(frame_extent_.height);
    // Scissor: the clip rectangle in framebuffer pixels, clamped to the framebuffer.
    float x0 = std::clamp((dc->ClipRect.x - dd->DisplayPos.x) * sx, 0.0f, fw);
    float y0 = std::clamp((dc->ClipRect.y - dd->DisplayPos.y) * sy, 0.0f, fh);
    float x1 = std::clamp((dc->ClipRect.z - dd->DisplayPos.x) * sx, 0.0f, fw);
    float y1 = std::clamp((dc->ClipRect.w - dd->DisplayPos.y) * sy, 0.0f, fh);
    if (x1 <= x0 || y1 <= y0) return;
    const float ox = std::floor((origin_[0] - dd->DisplayPos.x) * sx),
                oy = std::floor((origin_[1] - dd->DisplayPos.y) * sy);
    const float iw = static_cast<float>(computed_.push.img_w), ih = static_cast<float>(computed_.push.img_h);
    DrawPush push{{ox / fw * 2 - 1, oy / fh * 2 - 1, (ox + iw) / fw * 2 - 1, (oy + ih) / fh * 2 - 1},
                  {static_cast<std::int32_t>(ox), static_cast<std::int32_t>(oy)},
                  computed_.push.img_w,
                  computed_.push.img_h};
    vk::CommandBuffer cmd = frame_cmd_;
    cmd.bindPipeline(vk::PipelineBindPoint::eGraphics, *pipeline_);
    cmd.setViewport(0, vk::Viewport(0, 0, fw, fh, 0, 1));
    cmd.setScissor(0, vk::Rect2D({static_cast<std::int32_t>(x0), static_cast<std::int32_t>(y0)},
                                 {static_cast<std::uint32_t>(x1 - x0), static_cast<std::uint32_t>(y1 - y0)}));
    cmd.bindDescriptorSets(vk::PipelineBindPoint::eGraphics, *pipeline_layout_, 0, *set_, {});
    cmd.pushConstants(*pipeline_layout_, vk::ShaderStageFlagBits::eVertex | vk::ShaderStageFlagBits::eFragment, 0,
                      sizeof(push), &push);
    cmd.draw(6, 1, 0, 0);
}

}  // namespace normlab::views
