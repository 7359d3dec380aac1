// Headless chart figures: a title, a caption and line charts side by side (line_chart.hpp), drawn by Dear
// ImGui's Vulkan backend into an offscreen image with the app's fonts, as the heatmap figure (figure.hpp)
// is. normlab-cli train --figure draws a run's curves and a sweep's final errors with it.
#pragma once
#include "normlab/views/line_chart.hpp"
#include "normlab/views/png_file.hpp"

#include "normlab/gpu/vk_context.hpp"

#include <string>
#include <vector>

namespace normlab::views {

struct ChartFigure {
    std::string title, caption;
    std::vector<LineChart> charts;   // side by side, equal widths
    int width = 1400, height = 700;  // figure_size_ok
};

// Renders `figure` on `ctx` (its queue must support graphics). Throws InputError for a bad size,
// DeviceError on a device fault.
RgbaImage render_chart_figure(const gpu::VulkanContext& ctx, const ChartFigure& figure);

}  // namespace normlab::views
