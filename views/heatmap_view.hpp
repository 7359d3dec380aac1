// HeatmapView: the tensor as an N (rows) × C (columns) grid of H×W tiles. A compute shader
// (shaders/heatmap.comp) fills a pixel buffer at screen resolution whenever the data, mode,
// selection or size change; a small graphics pipeline copies it into the ImGui window
// through an ImDrawList callback (ImGui 1.86's Vulkan backend ignores texture ids).
// Modes: input, output, output − input (colormap + legend) and statistics (one color per
// statistic). Hover shows the element's numbers; a click selects its statistic group. It shows a
// ShownTensors (x and y on the host and the device, the layout, the result, a generation) and
// asks its ShownSource for the selection and the y − x histogram.
#pragma once
#include "colormap.hpp"
#include "heatmap_fill.hpp"
#include "normlab/shown_tensors.hpp"
#include "tile_layout.hpp"

#include "normlab/command_recorder.hpp"
#include "normlab/compute_kernel.hpp"
#include "normlab/gpu_buffer.hpp"

#include <optional>

struct ImDrawList;
struct ImDrawCmd;

namespace normlab::app {

class HeatmapView {
public:
    HeatmapView(const VulkanContext& ctx, vk::RenderPass render_pass);

    // The ImGui part, inside the current window: controls, the image, legend, tooltip, click.
    void draw(ShownSource& source);
    // Records the compute dispatch when something changed and remembers `cmd` for drawing.
    void before_pass(vk::CommandBuffer cmd, vk::Extent2D extent);

    HeatmapMode mode = HeatmapMode::Statistics;
    Colormap colormap = Colormap::Diverging;
    bool show_controls = true;  // mode buttons, colormap choice and the help line
    bool show_legend = true;    // the color legend under the image
    bool center = false;        // the image centered in the width it is given (else at the left)
    std::string legend_label;   // replaces "x", "y", "y - x" in the legend when set
    // When set, the value colormap spans [first, second] (values beyond it saturate), not the data's range.
    std::optional<std::pair<float, float>> fixed_range;
    // When set, clicks select here and in the caller's other views (compare view).
    std::optional<Index4> clicked;
    // Where the last frame drew the image (screen pixels) and its geometry (--dump-layout).
    float origin_x() const { return origin_[0]; }
    float origin_y() const { return origin_[1]; }
    const TileLayout& layout() const { return layout_; }
    // The height the image was given last frame (the panel's room under its controls).
    float image_room_h() const { return room_h_; }
    float image_room_w() const { return room_w_; }
    // Framebuffer pixels per ImGui unit (HiDPI): the image is filled at the framebuffer's
    // resolution and the layout is in those pixels.
    float pixel_scale() const { return px_; }

private:
    struct Key {
        std::uint64_t generation = ~0ull, buffer_epoch = ~0ull;
        int mode = -1, colormap = -1, width = 0, height = 0;
        float cell = 0, gap = 0, vmin = 0, vmax = 0;
        std::int64_t sel = -2;
        bool operator==(const Key&) const = default;
    };
    static void draw_callback(const ImDrawList* list, const ImDrawCmd* cmd);
    void record_draw(const ImDrawCmd* dc) const;
    void upload_colors(const ShownTensors& s);
    // The parts of draw(), in the order it calls them.
    void draw_controls(const Shape4& shape, Method method);
    void update_value_range(ShownSource& source);
    bool place_image(const Shape4& shape);  // returns whether the mouse is over the image
    void draw_cell_values(const ShownTensors& s) const;
    void draw_selection(const ShownTensors& s) const;
    void handle_mouse(ShownSource& source);
    void draw_legend(const ShownTensors& s) const;
    void tooltip(const ShownTensors& s, const Index4& e) const;
    void update_draw_set();

    const VulkanContext* ctx_;
    const ShownTensors* shown_ = nullptr;
    ComputeKernel fill_;
    CommandRecorder recorder_;  // the fill runs in its own submission, before the frame's
    GpuBuffer pixels_, palette_, lut_;
    std::vector<Rgb> lut_colors_;
    std::uint64_t palette_generation_ = ~0ull;
    int lut_map_ = -1;
    int palette_id_ = -1;
    vk::raii::DescriptorSetLayout set_layout_{nullptr};
    vk::raii::PipelineLayout pipeline_layout_{nullptr};
    vk::raii::Pipeline pipeline_{nullptr};
    vk::raii::DescriptorPool pool_{nullptr};
    vk::raii::DescriptorSet set_{nullptr};

    TileLayout layout_;
    float origin_[2] = {0, 0};  // ImGui units
    float room_w_ = 0, room_h_ = 0, px_ = 1;
    float legend_used_ = 0;  // the legend's height last frame
    float vmin_ = 0, vmax_ = 1;
    Key key_, computed_;
    // Per frame: the command buffer the ImGui draw callback records into.
    vk::CommandBuffer frame_cmd_{};
    vk::Extent2D frame_extent_{};
};

}  // namespace normlab::app
