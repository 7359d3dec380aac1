// HeatmapPanel: the tensor as an N (rows) × C (columns) grid of H×W tiles, the ImGui part of the
// heatmap: the mode buttons and colormap, the image's place, the values printed in large cells, the
// selected element's outline, the tooltip of the element under the mouse, click-to-select and the
// legend. Modes: input, output, output − input (colormap + legend) and statistics (one colour per
// statistic). Its HeatmapImage (heatmap_image.hpp) fills and draws the picture on the device: Vulkan on
// the desktop (HeatmapView, heatmap_view.hpp), WebGPU and WebGL in the browser. It shows a ShownTensors
// (x and y on the host and the device, the layout, the result, a generation) and asks its ShownSource
// for the selection and the y − x histogram.
#pragma once
#include "colormap.hpp"
#include "heatmap_fill.hpp"
#include "heatmap_image.hpp"
#include "normlab/session/shown_tensors.hpp"
#include "normlab/classroom/view_settings.hpp"
#include "tile_layout.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::app {

// The ids of the HeatmapModes in scenes and lesson steps ("view": {"heatmap": …}).
inline constexpr const char* kHeatmapModeIds[4] = {"input", "output", "diff", "stats"};

class HeatmapPanel {
public:
    explicit HeatmapPanel(std::unique_ptr<HeatmapImage> image);

    // Inside the current window: controls, the image, legend, tooltip, click.
    void draw(ShownSource& source);
    // The heatmap part of a scene's or lesson step's view: mode, colormap and group colours.
    void show_view(const ViewSettings& v);
    // show_view's twin: the view's heatmap part as shown now (the rest of the view left at its defaults).
    ViewSettings view() const;

    HeatmapMode mode = HeatmapMode::Statistics;
    Colormap colormap = Colormap::Diverging;
    bool show_controls = true;  // mode buttons, colormap choice and the help line
    bool show_legend = true;    // the color legend under the image
    bool center = false;        // the image centered in the width it is given (else at the left)
    bool compact = false;       // a phone: the mode buttons wrap to the width, no help line
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

protected:
    HeatmapImage& image() { return *image_; }

private:
    // The parts of draw(), in the order it calls them.
    void draw_controls(const Shape4& shape, Method method);
    void update_value_range(ShownSource& source);
    bool place_image(const ShownTensors& s);  // returns whether the mouse is over the image
    void draw_cell_values(const ShownTensors& s) const;
    void draw_selection(const ShownTensors& s) const;
    void handle_mouse(ShownSource& source);
    void draw_legend(const ShownTensors& s) const;
    void tooltip(const ShownTensors& s, const Index4& e) const;

    std::unique_ptr<HeatmapImage> image_;
    std::vector<Rgb> lut_colors_;  // the legend's colours (colormap_lut of lut_map_)
    int lut_map_ = -1;
    TileLayout layout_;
    float origin_[2] = {0, 0};  // ImGui units
    float room_w_ = 0, room_h_ = 0, px_ = 1;
    float legend_used_ = 0;  // the legend's height last frame
    float vmin_ = 0, vmax_ = 1;
};

}  // namespace normlab::app
