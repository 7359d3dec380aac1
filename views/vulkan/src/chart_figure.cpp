// Chart figures rendered offscreen (chart_figure.hpp).
#include "normlab/views/chart_figure.hpp"

#include "normlab/views/figure.hpp"
#include "normlab/views/imgui_vulkan.hpp"
#include "normlab/views/offscreen.hpp"

#include "normlab/core/error.hpp"

#include <backends/imgui_impl_vulkan.h>  // NewFrame

#include <algorithm>

namespace normlab::views {

RgbaImage render_chart_figure(const gpu::VulkanContext& ctx, const ChartFigure& f) {
    if (!figure_size_ok(f.width, f.height))
        throw core::InputError(std::string("figure size must be ") + kFigureSizeRule + ", got " +
                               std::to_string(f.width) + "x" + std::to_string(f.height));
    const vk::Extent2D extent(static_cast<std::uint32_t>(f.width), static_cast<std::uint32_t>(f.height));
    OffscreenTarget target(ctx, extent, vk::Format::eR8G8B8A8Unorm);
    RgbaImage out{f.width, f.height, {}};
    {
        ImGuiVulkan imgui(ctx, target.render_pass(), ImGuiVulkanOptions{});
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(static_cast<float>(f.width), static_cast<float>(f.height));
        io.DeltaTime = 1.0f / 60.0f;
        io.FontGlobalScale = 1.0f / imgui.raster_scale();
        io.FontDefault = imgui.fonts().normal;
        // Windows sized explicitly still settle their layout over a couple of frames (as figure.cpp).
        for (int frame = 0; frame < 3; ++frame) {
            ImGui_ImplVulkan_NewFrame();
            ImGui::NewFrame();
            ImGui::SetNextWindowPos(ImVec2(0, 0));
            ImGui::SetNextWindowSize(io.DisplaySize);
            ImGui::Begin("##charts", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
            ImGui::PushTextWrapPos(0.0f);  // long titles and captions wrap at the figure's edge
            ImGui::TextUnformatted(f.title.c_str());
            if (!f.caption.empty()) ImGui::TextDisabled("%s", f.caption.c_str());
            ImGui::PopTextWrapPos();
            const ImVec2 avail = ImGui::GetContentRegionAvail();
            const float gap = ImGui::GetStyle().ItemSpacing.x;
            const auto n = static_cast<float>(std::max<std::size_t>(1, f.charts.size()));
            for (std::size_t i = 0; i < f.charts.size(); ++i) {
                if (i) ImGui::SameLine();
                draw_line_chart(f.charts[i], ImVec2((avail.x - gap * (n - 1)) / n, avail.y));
            }
            ImGui::End();
            ImGui::Render();
            out.rgba = target.render(ImGui::GetDrawData(), {});
        }
    }
    return out;
}

}  // namespace normlab::views
