// HeatmapPanel: the tensor as an N (rows) × C (columns) grid of H×W tiles, the ImGui part of the
// heatmap: the mode buttons and colormap, the image's place, the values printed in large cells, the
// selected element's outline, the tooltip of the element under the mouse, click-to-select and the
// legend. Modes: input, output, output − input (colormap + legend) and statistics (one colour per
// statistic). Its HeatmapImage (heatmap_image.hpp) fills and draws the picture on the device: Vulkan on
// the desktop (HeatmapView, heatmap_view.hpp), WebGPU and WebGL in the browser. It shows a ShownTensors
// (x and y on the host and the device, the layout, the result, a generation) and asks its ShownSource
// for the selection and the y − x histogram. It zooms (HeatmapZoom, heatmap_zoom.hpp): two fingers
// pinch and pan, Ctrl+wheel zooms about the cursor, a mouse drags a zoomed image, a double tap or
// click and the Fit button over the image go back to the whole tensor; the fill draws only the
// window its panel shows (heatmap_fill.hpp's fill_window), and hover and taps map through the zoom.
// A tap or click selects on its release, so a press that turns into a pinch or a scroll selects
// nothing.
#pragma once
#include "normlab/views/colormap.hpp"
#include "normlab/views/heatmap_fill.hpp"
#include "normlab/views/heatmap_image.hpp"
#include "normlab/views/heatmap_zoom.hpp"
#include "normlab/session/shown_tensors.hpp"
#include "normlab/classroom/view_settings.hpp"
#include "normlab/views/tile_layout.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::views {

// The ids of the HeatmapModes in scenes and lesson steps ("view": {"heatmap": …}).
inline constexpr const char* kHeatmapModeIds[4] = {"input", "output", "diff", "stats"};

class HeatmapPanel {
public:
    explicit HeatmapPanel(std::unique_ptr<HeatmapImage> image);

    // Inside the current window: controls, the image, legend, tooltip, click.
    void draw(session::ShownSource& source);
    // The heatmap part of a scene's or lesson step's view: mode, colormap and group colours.
    void show_view(const classroom::ViewSettings& v);
    // show_view's twin: the view's heatmap part as shown now (the rest of the view left at its defaults).
    classroom::ViewSettings view() const;

    plan::HeatmapMode mode = plan::HeatmapMode::Statistics;
    Colormap colormap = Colormap::Diverging;
    bool show_controls = true;  // mode buttons, colormap choice and the help line
    bool show_legend = true;    // the color legend under the image
    bool center = false;        // the image centered in the width it is given (else at the left)
    bool compact = false;       // a phone: the mode buttons wrap to the width, no help line
    std::string legend_label;   // replaces "x", "y", "y - x" in the legend when set
    // When set, the value colormap spans [first, second] (values beyond it saturate), not the data's range.
    std::optional<std::pair<float, float>> fixed_range;
    // When set, clicks select here and in the caller's other views (compare view).
    std::optional<core::Index4> clicked;
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
    // The zoom and pan (ImGui units from the image's top-left), and going back to the whole tensor.
    const HeatmapZoom& zoom() const { return zoom_; }
    void reset_zoom() { zoom_.reset(); }
    // Element (n, c, h, w)'s top-left corner on screen and an element's side there (ImGui units),
    // through the zoom; the element under a screen point (nothing over a gap or outside the image).
    std::array<float, 2> element_on_screen(const core::Index4& e) const;
    float cell_on_screen() const { return layout_.cell / px_ * zoom_.zoom(); }
    std::optional<core::Index4> element_under(float x, float y) const;
    // The element nearest the middle of the image's place along its diagonal (the middle may be a gap).
    std::optional<core::Index4> element_near_middle() const;
    // The pixels the fill drew last frame (the window the zoom shows; never more than the panel's).
    const std::array<int, 2>& fill_size() const { return fill_size_; }
    // Where the Fit button was drawn last frame (x, y, w, h; all 0 when not zoomed).
    const std::array<float, 4>& fit_rect() const { return fit_rect_; }

protected:
    HeatmapImage& image() { return *image_; }

private:
    // The parts of draw(), in the order it calls them.
    void draw_controls(const core::Shape4& shape, core::Method method);
    void update_value_range(session::ShownSource& source);
    void place_image(const session::ShownTensors& s);
    void draw_cell_values(const session::ShownTensors& s) const;
    void draw_selection(const session::ShownTensors& s) const;
    void fit_button();
    void zoom_gestures();
    void handle_mouse(session::ShownSource& source);
    void draw_legend(const session::ShownTensors& s) const;
    void tooltip(const session::ShownTensors& s, const core::Index4& e) const;

    std::unique_ptr<HeatmapImage> image_;
    std::vector<Rgb> lut_colors_;  // the legend's colours (colormap_lut of lut_map_)
    int lut_map_ = -1;
    TileLayout layout_;
    float origin_[2] = {0, 0};  // ImGui units
    float room_w_ = 0, room_h_ = 0, px_ = 1;
    float legend_used_ = 0;  // the legend's height last frame
    float vmin_ = 0, vmax_ = 1;
    HeatmapZoom zoom_;
    core::Shape4 zoom_shape_;  // the zoom belongs to this shape: another tensor shows whole
    // This frame's pointer over the image: hovered, the press held, released over it (a click).
    bool hovered_ = false, held_ = false, released_ = false;
    bool pinch_owned_ = false;    // a pinch that began over the image goes on zooming it
    bool touch_pinched_ = false;  // the fingers on the screen pinched (no tooltip until one lands again)
    bool press_spent_ = false;    // this press panned or double-clicked: its release selects nothing
    std::array<float, 4> fit_rect_{};
    std::array<int, 2> fill_size_{};
};

}  // namespace normlab::views
