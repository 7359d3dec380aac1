#include "figure.hpp"

#include "fonts.hpp"
#include "heatmap_view.hpp"
#include "histogram_view.hpp"
#include "i18n.hpp"
#include "png_file.hpp"
#include "session.hpp"

#include "normlab/command_recorder.hpp"
#include "normlab/error.hpp"
#include "normlab/gpu_buffer.hpp"

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>

#include <cstdio>

namespace normlab::app {
namespace {

constexpr vk::Format kFormat = vk::Format::eR8G8B8A8Unorm;

void check_vk(VkResult err) {
    if (err < 0) throw DeviceError("Vulkan call failed in Dear ImGui's backend: " + vk::to_string(static_cast<vk::Result>(err)));
}

// The ImGui context, its Vulkan backend and the offscreen target, torn down in reverse.
struct Offscreen {
    const VulkanContext& ctx;
    vk::Extent2D extent;
    vk::raii::Image image{nullptr};
    vk::raii::DeviceMemory memory{nullptr};
    vk::raii::ImageView view{nullptr};
    vk::raii::RenderPass pass{nullptr};
    vk::raii::Framebuffer framebuffer{nullptr};
    vk::raii::DescriptorPool pool{nullptr};
    CommandRecorder recorder;
    GpuBuffer readback;
    bool imgui = false, backend = false;
    FontSet fonts;

    Offscreen(const VulkanContext& c, int w, int h) : ctx(c), extent(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)), recorder(c) {
        const auto& dev = ctx.device();
        image = vk::raii::Image(dev, vk::ImageCreateInfo({}, vk::ImageType::e2D, kFormat, vk::Extent3D(extent, 1), 1, 1,
                                                         vk::SampleCountFlagBits::e1, vk::ImageTiling::eOptimal,
                                                         vk::ImageUsageFlagBits::eColorAttachment | vk::ImageUsageFlagBits::eTransferSrc));
        auto req = image.getMemoryRequirements();
        memory = vk::raii::DeviceMemory(dev, vk::MemoryAllocateInfo(req.size, ctx.memory_type(req.memoryTypeBits, {},
                                                                                              vk::MemoryPropertyFlagBits::eDeviceLocal)));
        image.bindMemory(*memory, 0);
        view = vk::raii::ImageView(dev, vk::ImageViewCreateInfo({}, *image, vk::ImageViewType::e2D, kFormat, {},
                                                                vk::ImageSubresourceRange(vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1)));
        vk::AttachmentDescription att({}, kFormat, vk::SampleCountFlagBits::e1, vk::AttachmentLoadOp::eClear,
                                      vk::AttachmentStoreOp::eStore, vk::AttachmentLoadOp::eDontCare, vk::AttachmentStoreOp::eDontCare,
                                      vk::ImageLayout::eUndefined, vk::ImageLayout::eTransferSrcOptimal);
        vk::AttachmentReference ref(0, vk::ImageLayout::eColorAttachmentOptimal);
        vk::SubpassDescription subpass({}, vk::PipelineBindPoint::eGraphics, {}, ref);
        std::array<vk::SubpassDependency, 2> deps{
            // Orders earlier work (the previous frame's copy out of the image) before this pass writes it.
            vk::SubpassDependency(VK_SUBPASS_EXTERNAL, 0, vk::PipelineStageFlagBits::eColorAttachmentOutput | vk::PipelineStageFlagBits::eTransfer,
                                  vk::PipelineStageFlagBits::eColorAttachmentOutput, vk::AccessFlagBits::eTransferRead,
                                  vk::AccessFlagBits::eColorAttachmentWrite),
            // Orders the pass's color writes before the copy to the readback buffer reads the image.
            vk::SubpassDependency(0, VK_SUBPASS_EXTERNAL, vk::PipelineStageFlagBits::eColorAttachmentOutput,
                                  vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eColorAttachmentWrite,
                                  vk::AccessFlagBits::eTransferRead)};
        pass = vk::raii::RenderPass(dev, vk::RenderPassCreateInfo({}, att, subpass, deps));
        vk::ImageView iv = *view;
        framebuffer = vk::raii::Framebuffer(dev, vk::FramebufferCreateInfo({}, *pass, iv, extent.width, extent.height, 1));
        std::vector<vk::DescriptorPoolSize> sizes{{vk::DescriptorType::eCombinedImageSampler, 4}};
        pool = vk::raii::DescriptorPool(dev, vk::DescriptorPoolCreateInfo(vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 4, sizes));
        readback = GpuBuffer(ctx, static_cast<vk::DeviceSize>(extent.width) * extent.height * 4, BufferRole::Readback);
    }

    void init_imgui(const std::string& glyphs) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        imgui = true;
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(static_cast<float>(extent.width), static_cast<float>(extent.height));
        io.DeltaTime = 1.0f / 60.0f;
        ImGui::StyleColorsDark();
        ImGui::GetStyle().WindowRounding = 0;
        fonts = load_fonts(glyphs);
        ImGui_ImplVulkan_InitInfo init{};
        init.Instance = *ctx.instance();
        init.PhysicalDevice = *ctx.physical();
        init.Device = *ctx.device();
        init.QueueFamily = ctx.queue_family();
        init.Queue = *ctx.queue();
        init.DescriptorPool = *pool;
        init.MinImageCount = 2;
        init.ImageCount = 2;
        init.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
        init.CheckVkResultFn = check_vk;
        ImGui_ImplVulkan_Init(&init, *pass);
        backend = true;
        ImGui_ImplVulkan_CreateFontsTexture(recorder.begin());
        recorder.submit();
        ImGui_ImplVulkan_DestroyFontUploadObjects();
        // The symbols the figure draws (statistics, histograms, legend) must be in the font,
        // never drawn as '?' (the embedded font has them: this guards a new subset).
        for (const ImFont* f : {fonts.normal, fonts.large})
            if (std::string miss = missing_glyphs(f, "μσ²−√ε×±—x̂"); !miss.empty())
                std::fprintf(stderr, "warning: the font has no glyph for %s: drawn as '?'\n", miss.c_str());
    }

    ~Offscreen() {
        try {
            ctx.device().waitIdle();
        } catch (const vk::SystemError&) {  // a lost device: tear down anyway, never throw from here
        }
        if (backend) ImGui_ImplVulkan_Shutdown();
        if (imgui) ImGui::DestroyContext();
    }

    // Renders the last ImGui::Render() into the image and reads it back (RGBA).
    std::vector<unsigned char> render(HeatmapView& heatmap) {
        const vk::CommandBuffer cmd = recorder.begin();
        heatmap.before_pass(cmd, extent);
        vk::ClearValue clear(vk::ClearColorValue(std::array<float, 4>{0.06f, 0.06f, 0.07f, 1.0f}));
        cmd.beginRenderPass(vk::RenderPassBeginInfo(*pass, *framebuffer, vk::Rect2D({0, 0}, extent), clear), vk::SubpassContents::eInline);
        ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
        cmd.endRenderPass();
        cmd.copyImageToBuffer(*image, vk::ImageLayout::eTransferSrcOptimal, readback.handle(),
                              vk::BufferImageCopy(0, 0, 0, vk::ImageSubresourceLayers(vk::ImageAspectFlagBits::eColor, 0, 0, 1),
                                                  {0, 0, 0}, vk::Extent3D(extent, 1)));
        // Makes the copied pixels visible to the host's read after the fence.
        memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite, vk::PipelineStageFlagBits::eHost,
                       vk::AccessFlagBits::eHostRead);
        recorder.submit();
        const auto* src = static_cast<const unsigned char*>(readback.data());
        std::vector<unsigned char> rgba(src, src + readback.size());
        for (std::size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
        return rgba;
    }
};

HeatmapMode mode_of(const std::string& m) {
    if (m == "input") return HeatmapMode::Input;
    if (m == "output") return HeatmapMode::Output;
    if (m == "diff") return HeatmapMode::Difference;
    return HeatmapMode::Statistics;
}

}  // namespace

void render_figure(const VulkanContext& ctx, const State& state, Tensor x, const FigureOptions& o, const std::string& png_path) {
    if (o.width < 200 || o.height < 150 || o.width > 8192 || o.height > 8192)
        throw InputError("figure size must be between 200x150 and 8192x8192");
    Offscreen off(ctx, o.width, o.height);
    off.init_imgui(o.language == Language::Zh ? all_chinese_text() : std::string());
    if (o.language == Language::Zh) {
        set_cjk_font(off.fonts.cjk, off.fonts.cjk_missing);
        if (!set_language(Language::Zh)) std::fprintf(stderr, "warning: %s\n", off.fonts.cjk_missing.c_str());
    }
    ImGui::GetIO().FontDefault = o.large_text ? off.fonts.large : off.fonts.normal;
    Session session(ctx);
    if (auto err = session.apply(state, std::move(x))) throw InputError(*err);
    HeatmapView heatmap(ctx, *off.pass);
    heatmap.mode = mode_of(o.heatmap);
    heatmap.colormap = o.colormap == "viridis" ? Colormap::Viridis : o.colormap == "cividis" ? Colormap::Cividis : Colormap::Diverging;
    heatmap.show_controls = false;
    HistogramView histograms;
    histograms.show_bins = false;
    std::vector<unsigned char> rgba;
    // Windows sized explicitly still settle their layout over a couple of frames.
    for (int frame = 0; frame < 3; ++frame) {
        ImGui_ImplVulkan_NewFrame();
        ImGui::NewFrame();
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(d);
        ImGui::Begin("##figure", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
        const NormSpec& spec = session.state().spec;
        std::string title = std::string(method_torch_name(spec.method));
        if (spec.method == Method::Group) title += "(G=" + std::to_string(spec.groups) + ")";
        if (spec.method == Method::Layer || spec.method == Method::Rms)
            title += "(" + dims_str(spec.effective_normalized_shape(session.x().shape)) + ")";
        title += std::string("  ") + tr("on") + " " + session.x().shape.str() + "  —  " +
                 std::to_string(session.layout().stat_count) + " " + tr("statistics of") + " " +
                 std::to_string(session.layout().count()) + " " + tr("elements");
        ImGui::TextUnformatted(title.c_str());
        if (!o.caption.empty()) ImGui::TextDisabled("%s", o.caption.c_str());
        if (auto st = session.selected_stat(); st && !session.result().rstd.empty()) {
            const auto si = static_cast<std::size_t>(*st);
            const auto& sel = *session.state().selection;
            if (spec.method == Method::Rms)
                ImGui::Text(tr("selected (n, c, h, w) = (%lld, %lld, %lld, %lld): statistic #%lld, mean(x²) = %.5g"),
                            static_cast<long long>(sel[0]), static_cast<long long>(sel[1]), static_cast<long long>(sel[2]),
                            static_cast<long long>(sel[3]), static_cast<long long>(*st), session.result().mean_square[si]);
            else
                ImGui::Text(tr("selected (n, c, h, w) = (%lld, %lld, %lld, %lld): statistic #%lld, μ = %.5g, σ² = %.5g"),
                            static_cast<long long>(sel[0]), static_cast<long long>(sel[1]), static_cast<long long>(sel[2]),
                            static_cast<long long>(sel[3]), static_cast<long long>(*st), session.result().mean[si],
                            session.result().var[si]);
        }
        const float heat_h = ImGui::GetContentRegionAvail().y * 0.64f;
        ImGui::BeginChild("heat", ImVec2(0, heat_h), false, ImGuiWindowFlags_NoScrollbar);
        heatmap.draw(session);
        ImGui::EndChild();
        ImGui::Separator();
        ImGui::BeginChild("hist", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
        histograms.draw(session, o.large_text);
        ImGui::EndChild();
        ImGui::End();
        ImGui::Render();
        rgba = off.render(heatmap);
    }
    write_png_atomic(png_path, o.width, o.height, rgba);
}

}  // namespace normlab::app
