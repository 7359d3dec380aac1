#include "normlab/views/figure.hpp"

#include "normlab/views/fonts.hpp"
#include "normlab/views/imgui_vulkan.hpp"
#include "normlab/views/heatmap_view.hpp"
#include "normlab/views/histogram_view.hpp"
#include "normlab/views/offscreen.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/views/png_file.hpp"
#include "normlab/session/session.hpp"
#include "normlab/ops/vulkan_backend.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/partition_set.hpp"

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>  // NewFrame

#include <cstdio>

namespace normlab::views {
namespace {

constexpr vk::Format kFormat = vk::Format::eR8G8B8A8Unorm;

// The offscreen target and the ImGui setup drawing into it (destroyed before the target).
struct Offscreen {
    OffscreenTarget target;
    ImGuiVulkan imgui;

    Offscreen(const gpu::VulkanContext& c, int w, int h, const std::string& glyphs)
        : target(c, vk::Extent2D(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)), kFormat),
          imgui(c, target.render_pass(), ImGuiVulkanOptions{glyphs}) {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
        io.DeltaTime = 1.0f / 60.0f;
        io.FontGlobalScale = 1.0f / imgui.raster_scale();
        // The symbols the figure draws (statistics, histograms, legend) must be in the font,
        // never drawn as '?' (the embedded font has them: this guards a new subset).
        for (const ImFont* f : {imgui.fonts().normal, imgui.fonts().large})
            if (std::string miss = missing_glyphs(f, "μσ²−√ε×±—x̂"); !miss.empty())
                std::fprintf(stderr, "warning: the font has no glyph for %s: drawn as '?'\n", miss.c_str());
    }
    const FontSet& fonts() const { return imgui.fonts(); }

    // Renders the last ImGui::Render() into the image and reads it back (RGBA).
    std::vector<unsigned char> render(HeatmapView& heatmap) {
        return target.render(ImGui::GetDrawData(),
                             [&](vk::CommandBuffer cmd, vk::Extent2D e) { heatmap.before_pass(cmd, e); });
    }
};

plan::HeatmapMode mode_of(const std::string& m) {
    if (m == "input") return plan::HeatmapMode::Input;
    if (m == "output") return plan::HeatmapMode::Output;
    if (m == "diff") return plan::HeatmapMode::Difference;
    return plan::HeatmapMode::Statistics;
}

}  // namespace

void render_figure(const gpu::VulkanContext& ctx, const core::State& state, core::Tensor x, const FigureOptions& o,
                   const std::string& png_path) {
    ops::VulkanBackend backend(ctx);
    session::Session session(backend);
    if (auto err = session.apply(state, session::TensorChange::given(std::move(x)))) throw core::InputError(*err);
    render_figure(ctx, session, o, png_path);
}

void render_figure(const gpu::VulkanContext& ctx, session::Session& session, const FigureOptions& o,
                   const std::string& png_path) {
    if (!figure_size_ok(o.width, o.height))
        throw core::InputError(std::string("figure size must be ") + kFigureSizeRule + ", got " +
                               std::to_string(o.width) + "x" + std::to_string(o.height));
    Offscreen off(ctx, o.width, o.height, o.language == core::Language::Zh ? all_chinese_text() : std::string());
    if (o.language == core::Language::Zh) {
        set_cjk_font(off.fonts().cjk, off.fonts().cjk_missing);
        if (!set_language(core::Language::Zh)) std::fprintf(stderr, "warning: %s\n", off.fonts().cjk_missing.c_str());
    }
    ImGui::GetIO().FontDefault = o.large_text ? off.fonts().large : off.fonts().normal;
    HeatmapView heatmap(ctx, off.target.render_pass());
    heatmap.mode = mode_of(o.heatmap);
    heatmap.colormap = o.colormap == "viridis"   ? Colormap::Viridis
                       : o.colormap == "cividis" ? Colormap::Cividis
                                                 : Colormap::Diverging;
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
        const core::NormSpec& spec = session.state().spec;
        std::string title = std::string(core::method_torch_name(spec.method, session.x().shape));
        if (spec.method == core::Method::Group) title += "(G=" + std::to_string(spec.groups) + ")";
        if (spec.method == core::Method::Layer || spec.method == core::Method::Rms)
            title += "(" + core::dims_str(spec.effective_normalized_shape(session.x().shape)) + ")";
        title += std::string("  ") + tr("on") + " " + session.x().shape.str() + "  —  " +
                 std::to_string(session.layout().stat_count) + " " + tr("statistics of") + " " +
                 std::to_string(session.layout().count()) + " " + tr("elements");
        ImGui::TextUnformatted(title.c_str());
        if (!o.caption.empty()) ImGui::TextDisabled("%s", o.caption.c_str());
        if (auto st = session.selected_stat(); st && !session.result().rstd.empty()) {
            const auto si = static_cast<std::size_t>(*st);
            const std::string sel = core::element_text(spec.method, session.x().shape, *session.state().selection);
            if (spec.method == core::Method::Rms)
                ImGui::Text(tr("selected %s: statistic #%lld, mean(x²) = %.5g"), sel.c_str(),
                            static_cast<long long>(*st), session.result().mean_square[si]);
            else
                ImGui::Text(tr("selected %s: statistic #%lld, μ = %.5g, σ² = %.5g"), sel.c_str(),
                            static_cast<long long>(*st), session.result().mean[si], session.result().var[si]);
        }
        const float heat_h = ImGui::GetContentRegionAvail().y * 0.64f;
        ImGui::BeginChild("heat", ImVec2(0, heat_h), false, ImGuiWindowFlags_NoScrollbar);
        heatmap.draw(session);
        ImGui::EndChild();
        ImGui::Separator();
        ImGui::BeginChild("hist", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
        histograms.on_cpu = session.backend().on_cpu();
        histograms.draw(session.histograms(), session.bins(), o.large_text);
        ImGui::EndChild();
        ImGui::End();
        ImGui::Render();
        rgba = off.render(heatmap);
    }
    write_png_atomic(png_path, o.width, o.height, rgba);
}

}  // namespace normlab::views
