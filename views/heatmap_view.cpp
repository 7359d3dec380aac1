#include "heatmap_view.hpp"

#include <cstdio>

#include "gpu_upload.hpp"
#include "i18n.hpp"
#include "wrapped_text.hpp"
#include "normlab/partition_set.hpp"
#include "normlab/shader_library.hpp"
#include "normlab/vulkan_backend.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace normlab::app {
namespace {

// Mirrors `Push` in shaders/heatmap_draw.vert/.frag.
struct DrawPush {
    float rect[4];
    std::int32_t origin[2];
    std::uint32_t img_w, img_h;
};
static_assert(sizeof(DrawPush) == 32);

vk::raii::ShaderModule module(const VulkanContext& ctx, const char* name) {
    const auto& spirv = compiled_shader(name);
    return vk::raii::ShaderModule(ctx.device(), vk::ShaderModuleCreateInfo({}, spirv.size() * 4, spirv.data()));
}

const char* kModeNames[] = {"input x", "output y", "y − x", "statistic groups"};

}  // namespace

HeatmapView::HeatmapView(const VulkanContext& ctx, vk::RenderPass render_pass)
    : ctx_(&ctx), fill_(ctx, kFillShader, {}, {}, kFillBindings, sizeof(FillPush)), recorder_(ctx) {
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

void HeatmapView::upload_colors(const ShownTensors& s) {
    const int pid = static_cast<int>(current_group_palette());
    if (palette_generation_ == s.generation() && lut_map_ == static_cast<int>(colormap) && palette_id_ == pid) return;
    ctx_->device().waitIdle();  // a frame in flight may still read the old colors
    if (palette_generation_ != s.generation() || palette_id_ != pid) {
        palette_id_ = pid;
        std::vector<float> pal;
        const std::int64_t count = s.layout().stat_count;
        pal.reserve(static_cast<std::size_t>(count) * 4);
        for (std::int64_t i = 0; i < count; ++i) {
            Rgb c = stat_color(i, count);
            pal.insert(pal.end(), {c[0], c[1], c[2], 1.0f});
        }
        upload_buffer(*ctx_, palette_, pal.data(), pal.size() * 4);
        palette_generation_ = s.generation();
    }
    if (lut_map_ != static_cast<int>(colormap)) {
        lut_colors_ = colormap_lut(colormap);
        std::vector<float> lut;
        for (const auto& c : lut_colors_) lut.insert(lut.end(), {c[0], c[1], c[2], 1.0f});
        upload_buffer(*ctx_, lut_, lut.data(), lut.size() * 4);
        lut_map_ = static_cast<int>(colormap);
    }
}

void HeatmapView::draw(ShownSource& source) {
    const ShownTensors& shown = source.shown();
    shown_ = &shown;
    const Shape4& shape = shown.x().shape;
    if (show_controls) draw_controls(shape, shown.method());
    update_value_range(source);
    upload_colors(shown);
    const bool hovered = place_image(shape);
    auto sel_stat = shown.selected_stat();
    const int colors = static_cast<int>(colormap) + 16 * static_cast<int>(current_group_palette());
    key_ = Key{shown.generation(),
               shown.buffer_epoch(),
               static_cast<int>(mode),
               colors,
               layout_.width,
               layout_.height,
               layout_.cell,
               layout_.gap,
               vmin_,
               vmax_,
               sel_stat ? *sel_stat : -1};
    draw_cell_values(shown);
    draw_selection(shown);
    if (hovered) handle_mouse(source);
    if (show_legend) {  // its height is measured: a legend wrapped onto two lines gets that room next frame
        const float y0 = ImGui::GetCursorPosY();
        draw_legend(shown);
        legend_used_ = ImGui::GetCursorPosY() - y0;
    }
}

// Mode buttons, the colormap choice and the help line.
void HeatmapView::draw_controls(const Shape4& shape, Method method) {
    int m = static_cast<int>(mode);
    for (int i = 0; i < 4; ++i) {
        if (i) ImGui::SameLine();
        ImGui::RadioButton(tr(kModeNames[i]), &m, i);
    }
    mode = static_cast<HeatmapMode>(m);
    if (mode != HeatmapMode::Statistics) {
        ImGui::SameLine(0, 24);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 13);
        int cm = static_cast<int>(colormap);
        const char* names[] = {tr(kColormapNames[0]), tr(kColormapNames[1]), tr(kColormapNames[2])};
        if (ImGui::Combo("##colormap", &cm, names, 3)) colormap = static_cast<Colormap>(cm);
    }
    const bool tokens = method == Method::Layer || method == Method::Rms;  // (N, L, D); else (N, C, L)
    if (shape.rank == 3 && !tokens)
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = channels c, each tile = one channel's L = %lld "
                    "positions.  Hover: numbers; click: select (right click: clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.w)));
    else if (shape.rank == 3)  // N×L×D: a row per sample, a column per token, each tile a strip of D features
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = tokens l, each tile = one token's D = %lld "
                    "features.  Hover: numbers; click: select (right click: clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.w)));
    else if (shape.rank == 2)  // N×C: one value per tile
        wrapped_text_disabled(strf(tr("%lld rows = samples n, %lld columns = features c, each tile = one value.  "
                                      "Hover: numbers; click: select (right click: clear)."),
                                   static_cast<long long>(shape.n), static_cast<long long>(shape.c)));
    else if (shape.rank == 5)  // N×C×D×H×W: each tile stacks the D slices of H rows
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = channels c, each tile = one D×H×W = %lld×%lld×%lld "
                    "volume, its D slices stacked top to bottom.  Hover: numbers; click: select (right click: "
                    "clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.d),
                 static_cast<long long>(shape.height()), static_cast<long long>(shape.w)));
    else
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = channels c, each tile = one H×W = %lld×%lld "
                    "image.  Hover: numbers; click: select (right click: clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.h),
                 static_cast<long long>(shape.w)));
}

// Value range from the GPU histograms: min/max over the whole tensor (over its even sample
// for tensors past 1M elements, so a rare extreme value may clamp to the end of the scale).
void HeatmapView::update_value_range(ShownSource& source) {
    if (fixed_range) {
        vmin_ = fixed_range->first;
        vmax_ = fixed_range->second;
        return;
    }
    const Histograms& h = source.shown().histograms();
    const HistogramResult& src = mode == HeatmapMode::Input    ? h.input
                                 : mode == HeatmapMode::Output ? h.output
                                                               : source.difference_histogram();
    if (colormap == Colormap::Diverging) {
        double mx = std::max(std::abs(src.min), std::abs(src.max));
        vmin_ = static_cast<float>(-mx);
        vmax_ = static_cast<float>(mx);
    } else {
        vmin_ = static_cast<float>(src.min);
        vmax_ = static_cast<float>(src.max);
    }
}

// Fits the tiles into the space left above the legend, reserves it and adds the draw callback.
bool HeatmapView::place_image(const Shape4& shape) {
    const float legend_h = show_legend ? std::max(ImGui::GetFrameHeightWithSpacing() * 1.6f, legend_used_) : 0.0f;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    room_w_ = avail.x;
    room_h_ = avail.y - legend_h;
    // HiDPI: the tiles are laid out in framebuffer pixels, so the image is never scaled up.
    px_ = std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x);
    layout_ = TileLayout::fit(shape, std::max(16.0f, avail.x) * px_, std::max(16.0f, room_h_) * px_);
    const float w = static_cast<float>(layout_.width) / px_, h = static_cast<float>(layout_.height) / px_;
    if (center && w < avail.x) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::floor((avail.x - w) / 2));
    ImVec2 pos = ImGui::GetCursorScreenPos();
    origin_[0] = std::floor(pos.x);
    origin_[1] = std::floor(pos.y);
    ImGui::Dummy(ImVec2(w, h));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddCallback(&HeatmapView::draw_callback, this);
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    return hovered;
}

// Cells large enough to read: print each element's value (x, y or y − x) on it, so the
// seeds' small worked examples can be followed number by number.
void HeatmapView::draw_cell_values(const ShownTensors& s) const {
    const Shape4& shape = s.x().shape;
    const float font = ImGui::GetFontSize();
    const float cell = layout_.cell / px_;  // in ImGui units
    if (cell < 2.6f * font || shape.numel() > 4096 || s.y().data.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto& xs = s.x().data;
    const auto& ys = s.y().data;
    char text[32];
    for (std::int64_t i = 0; i < shape.numel(); ++i) {
        const auto u = static_cast<std::size_t>(i);
        const double v = mode == HeatmapMode::Output ? ys[u] : mode == HeatmapMode::Difference ? ys[u] - xs[u] : xs[u];
        std::snprintf(text, sizeof text, "%.3g", v);
        auto idx = unravel(shape, i);
        auto p = layout_.element_pos(idx[0], idx[1], idx[2], idx[3]);
        ImVec2 ts = ImGui::CalcTextSize(text);
        if (ts.x > cell - 4) continue;
        ImVec2 at(origin_[0] + p[0] / px_ + (cell - ts.x) * 0.5f, origin_[1] + p[1] / px_ + (cell - ts.y) * 0.5f);
        dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 220), text);  // shadow keeps it legible on any color
        dl->AddText(at, IM_COL32(255, 255, 255, 255), text);
    }
}

// Outline of the selected element (drawn by ImGui over the image).
void HeatmapView::draw_selection(const ShownTensors& s) const {
    const auto& sel = s.selection();
    if (!sel) return;
    auto p = layout_.element_pos((*sel)[0], (*sel)[1], (*sel)[2], (*sel)[3]);
    float sz = std::max(layout_.cell / px_, 3.0f);
    ImVec2 a(origin_[0] + p[0] / px_ - 1, origin_[1] + p[1] / px_ - 1), b(a.x + sz + 2, a.y + sz + 2);
    ImGui::GetWindowDrawList()->AddRect(a, b, IM_COL32(255, 255, 0, 255), 0, 0, 2.0f);
}

// Over the image: the tooltip of the element under the mouse; left click selects it, right click clears.
void HeatmapView::handle_mouse(ShownSource& source) {
    ImVec2 mp = ImGui::GetIO().MousePos;
    if (auto e = layout_.element_at((mp.x - origin_[0]) * px_, (mp.y - origin_[1]) * px_)) {
        Index4 idx{(*e)[0], (*e)[1], (*e)[2], (*e)[3]};
        tooltip(source.shown(), idx);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            source.select(idx);
            clicked = idx;
        }
    }
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) source.select(std::nullopt);
}

void HeatmapView::tooltip(const ShownTensors& s, const Index4& e) const {
    const NormResult& r = s.result();
    const std::int64_t i = s.x().offset(e[0], e[1], e[2], e[3]);
    const std::int64_t st = r.layout.stat_of(i);
    const auto si = static_cast<std::size_t>(st);
    const double x = s.x().data[static_cast<std::size_t>(i)];
    const double y = r.y.data[static_cast<std::size_t>(i)];
    ImGui::BeginTooltip();
    ImGui::Text(tr("element %s"), element_text(s.method(), s.x().shape, e).c_str());
    if (s.values_only()) {  // a difference pane: two given tensors, no statistics of its own
        ImGui::Text("left = %.6g   right = %.6g   right − left = %.6g", x, y, y - x);
        ImGui::EndTooltip();
        return;
    }
    ImGui::Text("x = %.6g", x);
    ImGui::Text(tr("statistic #%lld (of %lld, %lld elements each)"), static_cast<long long>(st),
                static_cast<long long>(r.layout.stat_count), static_cast<long long>(r.layout.count()));
    if (s.method() == Method::Rms) {
        ImGui::Text("mean(x²) = %.6g", r.mean_square[si]);
        ImGui::Text("x̂ = x / √(mean(x²) + ε) = %.6g", x * r.rstd[si]);
    } else {
        ImGui::Text("μ = %.6g   σ² = %.6g%s", r.mean[si], r.var[si],
                    r.stats_from_running ? tr("  (running stats, eval)") : "");
        ImGui::Text("x̂ = (x − μ) / √(σ² + ε) = %.6g", (x - r.mean[si]) * r.rstd[si]);
    }
    ImGui::Text("y = %.6g", y);
    ImGui::EndTooltip();
}

void HeatmapView::draw_legend(const ShownTensors& s) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const float sw = std::round(fs * 0.85f);  // swatch size follows the font (presenter mode)
    ImGui::Spacing();
    if (mode == HeatmapMode::Statistics) {
        const StatLayout& l = s.layout();
        ImVec2 p = ImGui::GetCursorScreenPos();
        const int shown = static_cast<int>(std::min<std::int64_t>(l.stat_count, 16));
        for (int i = 0; i < shown; ++i)
            dl->AddRectFilled(ImVec2(p.x + static_cast<float>(i) * (sw + 2), p.y + 2),
                              ImVec2(p.x + static_cast<float>(i) * (sw + 2) + sw, p.y + 2 + sw),
                              to_imgui(stat_color(i, l.stat_count)));
        ImGui::Dummy(ImVec2(static_cast<float>(shown) * (sw + 2) + 4, sw + 4));
        ImGui::SameLine();
        // RMSNorm has no μ; BatchNorm in eval mode uses the running statistics, not the groups' own.
        const char* legend = s.method() == Method::Rms
                                 ? "%lld statistics of %lld elements, each scaled by its own root mean square."
                             : s.result().stats_from_running
                                 ? "%lld channels of %lld elements, each normalized with its running_mean and "
                                   "running_var (eval mode)."
                                 : "%lld statistics of %lld elements, each normalized with its own μ, σ².";
        wrapped_text(strf(tr(legend), static_cast<long long>(l.stat_count), static_cast<long long>(l.count())));
        return;
    }
    const float w = std::max(fs * 4, std::min(fs * 20, ImGui::GetContentRegionAvail().x - fs * 10));
    ImVec2 p = ImGui::GetCursorScreenPos();
    const std::string label = !legend_label.empty()         ? legend_label
                              : mode == HeatmapMode::Input  ? "x"
                              : mode == HeatmapMode::Output ? "y"
                                                            : "y − x";
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine();
    ImGui::Text("%.3g", vmin_ == 0.0f ? 0.0f : vmin_);  // no "-0"
    ImGui::SameLine();
    p = ImGui::GetCursorScreenPos();
    const int segs = 64;
    for (int i = 0; i < segs; ++i) {
        auto c0 = to_imgui(lut_colors_[static_cast<std::size_t>(i * (kLutSize - 1) / segs)]);
        auto c1 = to_imgui(lut_colors_[static_cast<std::size_t>((i + 1) * (kLutSize - 1) / segs)]);
        float x0 = p.x + w * static_cast<float>(i) / segs, x1 = p.x + w * static_cast<float>(i + 1) / segs;
        dl->AddRectFilledMultiColor(ImVec2(x0, p.y + 2), ImVec2(x1, p.y + 2 + sw), c0, c1, c1, c0);
    }
    ImGui::Dummy(ImVec2(w, sw + 4));
    ImGui::SameLine();
    ImGui::Text("%.3g", vmax_);
}

void HeatmapView::update_draw_set() {
    vk::DescriptorBufferInfo bi(pixels_.handle(), 0, VK_WHOLE_SIZE);
    vk::WriteDescriptorSet w(*set_, 0, 0, 1, vk::DescriptorType::eStorageBuffer, nullptr, &bi);
    ctx_->device().updateDescriptorSets(w, {});
}

void HeatmapView::before_pass(vk::CommandBuffer cmd, vk::Extent2D extent) {
    frame_cmd_ = cmd;
    frame_extent_ = extent;
    if (!shown_ || key_ == computed_) return;
    const ShownTensors& s = *shown_;
    const vk::DeviceSize bytes =
        static_cast<vk::DeviceSize>(layout_.width) * static_cast<vk::DeviceSize>(layout_.height) * 4;
    bool rebind = key_.generation != computed_.generation || key_.buffer_epoch != computed_.buffer_epoch ||
                  key_.colormap != computed_.colormap;
    if (!pixels_ || pixels_.size() != bytes) {
        ctx_->device().waitIdle();  // frames in flight may still draw from the old pixels
        pixels_ = GpuBuffer();
        pixels_ = GpuBuffer(*ctx_, bytes, BufferRole::Compute);
        update_draw_set();
        rebind = true;
    }

    const FillPush push = fill_push(layout_, mode, vmin_, vmax_, s.layout(), key_.sel, kLutSize);
    // The descriptor set is rewritten only when its buffers changed (the fill's earlier
    // submissions have all finished; every buffer change happens after the device was idled).
    if (rebind)
        fill_.bind({vulkan_buffer(s.x_device()).handle(), vulkan_buffer(s.y_device()).handle(), palette_.handle(),
                    lut_.handle(), pixels_.handle()});
    // The fill is its own submission: the recorder's first barrier orders earlier frames'
    // fragment-shader reads of the pixels (same queue) before the fill overwrites them.
    vk::CommandBuffer fill_cmd = recorder_.begin();
    fill_.dispatch(fill_cmd, &push, fill_workgroups(layout_.width), fill_workgroups(layout_.height));
    recorder_.submit();
    // Orders the fill's writes before this frame's fragment shader reads the pixels.
    memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                   vk::PipelineStageFlagBits::eFragmentShader, vk::AccessFlagBits::eShaderRead);
    computed_ = key_;
}

void HeatmapView::draw_callback(const ImDrawList*, const ImDrawCmd* dc) {
    static_cast<const HeatmapView*>(dc->UserCallbackData)->record_draw(dc);
}

void HeatmapView::record_draw(const ImDrawCmd* dc) const {
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
    const float iw = static_cast<float>(computed_.width), ih = static_cast<float>(computed_.height);
    DrawPush push{{ox / fw * 2 - 1, oy / fh * 2 - 1, (ox + iw) / fw * 2 - 1, (oy + ih) / fh * 2 - 1},
                  {static_cast<std::int32_t>(ox), static_cast<std::int32_t>(oy)},
                  static_cast<std::uint32_t>(computed_.width),
                  static_cast<std::uint32_t>(computed_.height)};
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

}  // namespace normlab::app
