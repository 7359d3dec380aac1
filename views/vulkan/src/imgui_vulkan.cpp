#include "normlab/views/imgui_vulkan.hpp"

#include "normlab/views/vk_check.hpp"

#include "normlab/gpu/command_recorder.hpp"
#include "normlab/core/error.hpp"

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::views {

ImGuiVulkan::ImGuiVulkan(const gpu::VulkanContext& ctx, vk::RenderPass render_pass, const ImGuiVulkanOptions& options)
    : ctx_(ctx) {
    std::vector<vk::DescriptorPoolSize> sizes{{vk::DescriptorType::eCombinedImageSampler, 16}};
    pool_ = vk::raii::DescriptorPool(
        ctx.device(), vk::DescriptorPoolCreateInfo(vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 16, sizes));
    try {
        init(render_pass, options);
    } catch (...) {  // a destructor does not run for a half-made object
        shut_down();
        throw;
    }
}

void ImGuiVulkan::init(vk::RenderPass render_pass, const ImGuiVulkanOptions& options) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    context_ = true;
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is computed, never restored from imgui.ini
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 0.0f;
    build_fonts(options);

    ImGui_ImplVulkan_InitInfo init{};
    init.Instance = *ctx_.instance();
    init.PhysicalDevice = *ctx_.physical();
    init.Device = *ctx_.device();
    init.QueueFamily = ctx_.queue_family();
    init.Queue = *ctx_.queue();
    init.DescriptorPool = *pool_;
    init.MinImageCount = options.min_images;
    init.ImageCount = options.image_count;
    init.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    init.CheckVkResultFn = check_vk;
    init.PipelineCache = ctx_.pipeline_cache_handle();
    ImGui_ImplVulkan_Init(&init, static_cast<VkRenderPass>(render_pass));
    backend_ = true;

    // The font atlas, uploaded once.
    gpu::CommandRecorder recorder(ctx_);
    ImGui_ImplVulkan_CreateFontsTexture(recorder.begin());
    recorder.submit();
    ImGui_ImplVulkan_DestroyFontUploadObjects();
}

// The glyphs of three sizes (Chinese merged into each) at a large scale can outgrow the largest
// texture the device takes: then they are rasterized smaller (each try 0.8×) and scaled up.
void ImGuiVulkan::build_fonts(const ImGuiVulkanOptions& options) {
    ImGuiIO& io = ImGui::GetIO();
    const float want = options.raster_scale;
    const std::uint32_t max_h = ctx_.limits().maxImageDimension2D;
    raster_ = want;
    for (;;) {
        fonts_ = load_fonts(options.glyph_text, raster_);
        io.Fonts->Build();
        if (static_cast<std::uint32_t>(io.Fonts->TexHeight) <= max_h || raster_ <= 1.0f) break;
        raster_ = std::max(1.0f, std::floor(raster_ * 8.0f) / 10.0f);
        io.Fonts->Clear();
    }
    if (static_cast<std::uint32_t>(io.Fonts->TexHeight) > max_h)
        throw core::InputError("the fonts need a texture " + std::to_string(io.Fonts->TexHeight) +
                               " pixels high, more than this device's " + std::to_string(max_h));
    if (raster_ < want)
        std::fprintf(stderr,
                     "warning: fonts rasterized at scale %.3g instead of %.3g (a texture of %u pixels at most) and "
                     "scaled up\n",
                     static_cast<double>(raster_), static_cast<double>(want), max_h);
}

ImGuiVulkan::~ImGuiVulkan() { shut_down(); }

void ImGuiVulkan::shut_down() {
    try {
        ctx_.device().waitIdle();
    } catch (const vk::SystemError&) {  // a lost device: tear down anyway, never throw from here
    }
    if (backend_) ImGui_ImplVulkan_Shutdown();
    if (context_) ImGui::DestroyContext();
    backend_ = context_ = false;
}

}  // namespace normlab::views
