// ImGuiVulkan: one Dear ImGui context with its Vulkan backend, its style and its font atlas on
// the GPU, for one render pass — the single setup the window (app/window.cpp) and the headless
// figure (figure.cpp) share. The fonts are rasterized at the scale asked for, or smaller when
// the atlas would outgrow the device's maxImageDimension2D (then scaled up, with a warning).
// A platform backend (GLFW) is the owner's to add after construction and remove before the
// destructor runs.
#pragma once
#include "normlab/views/fonts.hpp"

#include "normlab/gpu/vk_context.hpp"

#include <cstdint>
#include <string>

namespace normlab::views {

struct ImGuiVulkanOptions {
    std::string glyph_text;        // extra text whose CJK glyphs the atlas must hold
    float raster_scale = 1.0f;     // pixels per ImGui unit the fonts are wanted at (HiDPI)
    std::uint32_t min_images = 2;  // the swapchain's (2 for an offscreen target)
    std::uint32_t image_count = 2;
};

class ImGuiVulkan {
public:
    // Creates the context and the backend for `render_pass`, builds and uploads the fonts.
    // Throws InputError when even 1× fonts exceed the device's texture limit.
    ImGuiVulkan(const gpu::VulkanContext& ctx, vk::RenderPass render_pass, const ImGuiVulkanOptions& options);
    ~ImGuiVulkan();  // waits for the device, then shuts the backend and the context down
    ImGuiVulkan(const ImGuiVulkan&) = delete;
    ImGuiVulkan& operator=(const ImGuiVulkan&) = delete;

    const FontSet& fonts() const { return fonts_; }
    // The scale the fonts were rasterized at (≤ the one asked for): io.FontGlobalScale is the
    // caller's UI scale divided by it.
    float raster_scale() const { return raster_; }

private:
    void init(vk::RenderPass render_pass, const ImGuiVulkanOptions& options);
    void build_fonts(const ImGuiVulkanOptions& options);
    void shut_down();

    const gpu::VulkanContext& ctx_;
    vk::raii::DescriptorPool pool_{nullptr};
    FontSet fonts_;
    float raster_ = 1.0f;
    bool context_ = false, backend_ = false;
};

}  // namespace normlab::views
