// Headless figures: the app's heatmap (with the selected group highlighted) and its
// histograms rendered by Dear ImGui's Vulkan backend into an offscreen image and written as
// PNG, with no window and no display. normlab-cli --figure uses it for handouts and tests;
// the panels are the app's own (HeatmapView, HistogramView), so the figure looks like it.
#pragma once
#include "normlab/core/local_text.hpp"
#include "normlab/core/state.hpp"
#include "normlab/gpu/vk_context.hpp"

#include <string>

namespace normlab::session {
class Session;
}  // namespace normlab::session

namespace normlab::views {

struct FigureOptions {
    int width = 1400, height = 900;
    std::string heatmap = "stats";       // input | output | diff | stats
    std::string colormap = "diverging";  // diverging | viridis | cividis
    bool large_text = false;             // the presenter-mode font
    core::Language language = core::Language::En;
    std::string caption;  // a line under the title ("" for none)
};

// The one rule for a figure's size, checked before any GPU work: from 200×150 (room for the
// heatmap and the histograms) to 8192×8192.
inline constexpr const char* kFigureSizeRule = "200x150 to 8192x8192";
constexpr bool figure_size_ok(int width, int height) {
    return width >= 200 && height >= 150 && width <= 8192 && height <= 8192;
}

// Normalizes `x` with `state` on `ctx` (its queue must support graphics) and writes the
// figure to png_path atomically. Throws InputError / DeviceError.
void render_figure(const gpu::VulkanContext& ctx, const core::State& state, core::Tensor x,
                   const FigureOptions& options, const std::string& png_path);
// The same for a Session already applied on `ctx` (nothing is normalized again).
void render_figure(const gpu::VulkanContext& ctx, session::Session& session, const FigureOptions& options,
                   const std::string& png_path);

}  // namespace normlab::views
