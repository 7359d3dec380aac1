#include "normlab/views/heatmap_panel.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/touch_input.hpp"
#include "normlab/views/wrapped_text.hpp"
#include "normlab/core/partition_set.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiButtonFlags_AllowItemOverlap: the Fit button over the image

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::views {
namespace {
const char* kModeNames[] = {"input x", "output y", "y − x", "statistic groups"};
}  // namespace

HeatmapPanel::HeatmapPanel(std::unique_ptr<HeatmapImage> image) : image_(std::move(image)) {}

void HeatmapPanel::show_view(const classroom::ViewSettings& v) {
    for (int i = 0; i < 4; ++i)
        if (v.heatmap == kHeatmapModeIds[i]) mode = static_cast<plan::HeatmapMode>(i);
    for (int i = 0; i < 3; ++i)
        if (v.colormap == kColormapIds[i]) colormap = static_cast<Colormap>(i);
    for (int i = 0; i < 2; ++i)
        if (v.palette == kGroupPaletteIds[i]) set_group_palette(static_cast<GroupPalette>(i));
}

classroom::ViewSettings HeatmapPanel::view() const {
    classroom::ViewSettings v;
    v.heatmap = kHeatmapModeIds[static_cast<int>(mode)];
    v.colormap = kColormapIds[static_cast<int>(colormap)];
    v.palette = kGroupPaletteIds[static_cast<int>(current_group_palette())];
    return v;
}

void HeatmapPanel::draw(session::ShownSource& source) {
    ImGui::PushID(this);  // views that hold several heatmaps in one window
    const session::ShownTensors& shown = source.shown();
    if (show_controls) draw_controls(shown.x().shape, shown.method());
    update_value_range(source);
    if (lut_map_ != static_cast<int>(colormap)) {
        lut_colors_ = colormap_lut(colormap);
        lut_map_ = static_cast<int>(colormap);
    }
    place_image(shown);
    const bool zoomed = zoom_.zoomed();
    if (zoomed)  // the values and the outline stay inside the image's place
        ImGui::PushClipRect(ImVec2(origin_[0], origin_[1]),
                            ImVec2(origin_[0] + layout_.width / px_, origin_[1] + layout_.height / px_), true);
    draw_cell_values(shown);
    draw_selection(shown);
    if (zoomed) ImGui::PopClipRect();
    fit_button();
    zoom_gestures();
    handle_mouse(source);
    if (show_legend) {  // its height is measured: a legend wrapped onto two lines gets that room next frame
        const float y0 = ImGui::GetCursorPosY();
        draw_legend(shown);
        legend_used_ = ImGui::GetCursorPosY() - y0;
    }
    ImGui::PopID();
}

// Mode buttons, the colormap choice and the help line.
void HeatmapPanel::draw_controls(const core::Shape4& shape, core::Method method) {
    int m = static_cast<int>(mode);
    const ImGuiStyle& st = ImGui::GetStyle();
    if (compact) {  // a phone: one row, the modes in a list
        const char* modes[] = {tr(kModeNames[0]), tr(kModeNames[1]), tr(kModeNames[2]), tr(kModeNames[3])};
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 11);
        ImGui::Combo("##mode", &m, modes, 4);
    } else {
        for (int i = 0; i < 4; ++i) {
            if (i)
                same_line_if_fits(ImGui::GetFrameHeight() + st.ItemInnerSpacing.x +
                                  ImGui::CalcTextSize(tr(kModeNames[i])).x);
            ImGui::RadioButton(tr(kModeNames[i]), &m, i);
        }
    }
    mode = static_cast<plan::HeatmapMode>(m);
    if (mode != plan::HeatmapMode::Statistics) {
        const float w = ImGui::GetFontSize() * (compact ? 9 : 13);
        same_line_if_fits(w);
        ImGui::SetNextItemWidth(w);
        int cm = static_cast<int>(colormap);
        const char* names[] = {tr(kColormapNames[0]), tr(kColormapNames[1]), tr(kColormapNames[2])};
        if (ImGui::Combo("##colormap", &cm, names, 3)) colormap = static_cast<Colormap>(cm);
    }
    if (compact) return;  // a phone: tap, long press (touch_input.hpp)
    const bool tokens = method == core::Method::Layer || method == core::Method::Rms;  // (N, L, D); else (N, C, L)
    if (shape.rank == 3 && !tokens)
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = channels c, each tile = one channel's L = %lld "
                    "positions.  Hover: numbers; click: select (right click: clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.w)));
    else if (shape.rank == 3)  // N×L×D: a row per sample, a column per token, each tile a strip of D features
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = tokens l, each tile = one token's D = %lld "
                    "features.  Hover: numbers; click: select (right click: clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.w)));
    else if (shape.rank == 1)  // D: one vector, a row of D tiles
        wrapped_text_disabled(strf(tr("One vector of D = %lld features, each tile = one value.  Hover: numbers; "
                                      "click: select (right click: clear)."),
                                   static_cast<long long>(shape.c)));
    else if (shape.rank == 2)  // N×C: one value per tile
        wrapped_text_disabled(strf(tr("%lld rows = samples n, %lld columns = features c, each tile = one value.  "
                                      "Hover: numbers; click: select (right click: clear)."),
                                   static_cast<long long>(shape.n), static_cast<long long>(shape.c)));
    else if (shape.rank == 5)  // N×C×D×H×W: each tile stacks the D slices of H rows
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = channels c, each tile = one D×H×W = %lld×%lld×%lld "
                    "volume, its D slices stacked top to bottom.  Hover: numbers; click: select (right click: "
                    "clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.d),
                 static_cast<long long>(shape.height()), static_cast<long long>(shape.w)));
    else
        wrapped_text_disabled(
            strf(tr("%lld rows = samples n, %lld columns = channels c, each tile = one H×W = %lld×%lld "
                    "image.  Hover: numbers; click: select (right click: clear)."),
                 static_cast<long long>(shape.n), static_cast<long long>(shape.c), static_cast<long long>(shape.h),
                 static_cast<long long>(shape.w)));
}

// Value range from the GPU histograms: min/max over the whole tensor (over its even sample
// for tensors past 1M elements, so a rare extreme value may clamp to the end of the scale).
void HeatmapPanel::update_value_range(session::ShownSource& source) {
    if (fixed_range) {
        vmin_ = fixed_range->first;
        vmax_ = fixed_range->second;
        return;
    }
    const session::Histograms& h = source.shown().histograms();
    const plan::HistogramResult& src = mode == plan::HeatmapMode::Input    ? h.input
                                       : mode == plan::HeatmapMode::Output ? h.output
                                                                           : source.difference_histogram();
    if (colormap == Colormap::Diverging) {
        double mx = std::max(std::abs(src.min), std::abs(src.max));
        vmin_ = static_cast<float>(-mx);
        vmax_ = static_cast<float>(mx);
    } else {
        vmin_ = static_cast<float>(src.min);
        vmax_ = static_cast<float>(src.max);
    }
}

// Fits the tiles into the space left above the legend, reserves it (a button: a click selects on its
// release) and has the window of the image its zoom shows drawn there.
void HeatmapPanel::place_image(const session::ShownTensors& s) {
    const float legend_h = show_legend ? std::max(ImGui::GetFrameHeightWithSpacing() * 1.6f, legend_used_) : 0.0f;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    room_w_ = avail.x;
    room_h_ = avail.y - legend_h;
    // HiDPI: the tiles are laid out in framebuffer pixels, so the image is never scaled up.
    px_ = std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x);
    layout_ = TileLayout::fit(s.x().shape, std::max(16.0f, avail.x) * px_, std::max(16.0f, room_h_) * px_);
    const float w = static_cast<float>(layout_.width) / px_, h = static_cast<float>(layout_.height) / px_;
    if (center && w < avail.x) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::floor((avail.x - w) / 2));
    ImVec2 pos = ImGui::GetCursorScreenPos();
    origin_[0] = std::floor(pos.x);
    origin_[1] = std::floor(pos.y);
    if (!(layout_.shape == zoom_shape_)) {
        zoom_.reset();
        zoom_shape_ = layout_.shape;
    }
    zoom_.set_sizes(w, h, w, h);  // the zoomed image is seen through the unzoomed one's place
    // The Fit button over the image takes the clicks on it (ImGui's overlap: the later item wins).
    released_ = ImGui::InvisibleButton("##heatmap", ImVec2(std::max(w, 1.0f), std::max(h, 1.0f)),
                                       static_cast<ImGuiButtonFlags>(ImGuiButtonFlags_AllowItemOverlap));
    ImGui::SetItemAllowOverlap();
    hovered_ = ImGui::IsItemHovered();
    held_ = ImGui::IsItemActive();
    const FillWindow win = fill_window(layout_, zoom_.zoom(), zoom_.offset_x() * px_, zoom_.offset_y() * px_);
    fill_size_ = {win.tiles.width, win.tiles.height};
    const auto sel = s.selected_stat();
    HeatmapPicture picture{
        &s,       s.generation(),          s.buffer_epoch(),
        colormap, current_group_palette(), fill_push(win, mode, vmin_, vmax_, s.layout(), sel ? *sel : -1, kLutSize)};
    image_->draw(picture,
                 ImVec2(origin_[0] + static_cast<float>(win.x) / px_, origin_[1] + static_cast<float>(win.y) / px_),
                 ImVec2(static_cast<float>(win.tiles.width) / px_, static_cast<float>(win.tiles.height) / px_));
}

std::array<float, 2> HeatmapPanel::element_on_screen(const core::Index4& e) const {
    const auto p = layout_.element_pos(e[0], e[1], e[2], e[3]);
    float sx = 0, sy = 0;
    zoom_.to_panel(p[0] / px_, p[1] / px_, sx, sy);
    return {origin_[0] + sx, origin_[1] + sy};
}

std::optional<core::Index4> HeatmapPanel::element_under(float x, float y) const {
    const float w = static_cast<float>(layout_.width) / px_, h = static_cast<float>(layout_.height) / px_;
    if (x < origin_[0] || y < origin_[1] || x >= origin_[0] + w || y >= origin_[1] + h) return std::nullopt;
    float ix = 0, iy = 0;
    zoom_.to_image(x - origin_[0], y - origin_[1], ix, iy);
    const auto e = layout_.element_at(ix * px_, iy * px_);
    if (!e) return std::nullopt;
    return core::Index4{(*e)[0], (*e)[1], (*e)[2], (*e)[3]};
}

std::optional<core::Index4> HeatmapPanel::element_near_middle() const {
    const float w = static_cast<float>(layout_.width) / px_, h = static_cast<float>(layout_.height) / px_;
    const float step = std::max(1.0f, cell_on_screen() / 3);
    for (int k = 0; k < 64; ++k)
        for (const float dir : {1.0f, -1.0f})
            if (auto e = element_under(origin_[0] + w / 2 + dir * step * k, origin_[1] + h / 2 + dir * step * k))
                return e;
    return std::nullopt;
}

// Cells large enough to read: print each element's value (x, y or y − x) on it, so the
// seeds' small worked examples can be followed number by number (zoomed: the elements in view).
void HeatmapPanel::draw_cell_values(const session::ShownTensors& s) const {
    const core::Shape4& shape = s.x().shape;
    const float font = ImGui::GetFontSize();
    const float cell = cell_on_screen();  // in ImGui units
    if (cell < 2.6f * font || s.y().data.empty() || (!zoom_.zoomed() && shape.numel() > 4096)) return;
    // The image's part in view, in its pixels at zoom 1, and the tiles and elements in it.
    float ax = 0, ay = 0, bx = 0, by = 0;
    zoom_.to_image(0, 0, ax, ay);
    zoom_.to_image(static_cast<float>(layout_.width) / px_, static_cast<float>(layout_.height) / px_, bx, by);
    const float tw = layout_.tile_w() + layout_.gap, th = layout_.tile_h() + layout_.gap;
    auto span = [](float a, float b, float step, std::int64_t count) {
        const auto first = static_cast<std::int64_t>(std::max(0.0f, std::floor(a / step)));
        return std::pair{first, std::min(count, static_cast<std::int64_t>(std::floor(b / step)) + 1)};
    };
    const auto [n0, n1] = span(ay * px_, by * px_, th, shape.n);
    const auto [c0, c1] = span(ax * px_, bx * px_, tw, shape.c);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto& xs = s.x().data;
    const auto& ys = s.y().data;
    char text[32];
    for (std::int64_t n = n0; n < n1; ++n)
        for (std::int64_t c = c0; c < c1; ++c) {
            const float tx = static_cast<float>(c) * tw, ty = static_cast<float>(n) * th;
            const auto [h0, h1] = span(ay * px_ - ty, by * px_ - ty, layout_.cell, shape.h);
            const auto [w0, w1] = span(ax * px_ - tx, bx * px_ - tx, layout_.cell, shape.w);
            for (std::int64_t h = h0; h < h1; ++h)
                for (std::int64_t w = w0; w < w1; ++w) {
                    const auto u = static_cast<std::size_t>(s.x().offset(n, c, h, w));
                    const double v = mode == plan::HeatmapMode::Output       ? ys[u]
                                     : mode == plan::HeatmapMode::Difference ? ys[u] - xs[u]
                                                                             : xs[u];
                    std::snprintf(text, sizeof text, "%.3g", v);
                    const ImVec2 ts = ImGui::CalcTextSize(text);
                    if (ts.x > cell - 4) continue;
                    const auto p = element_on_screen({n, c, h, w});
                    const ImVec2 at(p[0] + (cell - ts.x) * 0.5f, p[1] + (cell - ts.y) * 0.5f);
                    dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 220),
                                text);  // a shadow: legible on any color
                    dl->AddText(at, IM_COL32(255, 255, 255, 255), text);
                }
        }
}

// Outline of the selected element (drawn by ImGui over the image).
void HeatmapPanel::draw_selection(const session::ShownTensors& s) const {
    const auto& sel = s.selection();
    if (!sel) return;
    const auto p = element_on_screen(*sel);
    const float sz = std::max(cell_on_screen(), 3.0f);
    ImVec2 a(p[0] - 1, p[1] - 1), b(a.x + sz + 2, a.y + sz + 2);
    ImGui::GetWindowDrawList()->AddRect(a, b, IM_COL32(255, 255, 0, 255), 0, 0, 2.0f);
}

// A zoomed image: "Fit" at its top-right corner shows the whole tensor again.
void HeatmapPanel::fit_button() {
    fit_rect_ = {};
    if (!zoom_.zoomed()) return;
    const ImVec2 keep = ImGui::GetCursorScreenPos();
    const std::string label = strf("%s  %.1f×", tr("Fit"), static_cast<double>(zoom_.zoom())) + "###fit";
    const ImVec2 size(ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x,
                      ImGui::GetFrameHeight());
    const float right = origin_[0] + static_cast<float>(layout_.width) / px_;
    const ImVec2 at(std::max(origin_[0], right - size.x - 4), origin_[1] + 4);
    fit_rect_ = {at.x, at.y, size.x, size.y};
    ImGui::SetCursorScreenPos(at);
    // Opaque: the cell values printed under the button must not show through its label.
    for (const ImGuiCol c : {ImGuiCol_Button, ImGuiCol_ButtonHovered, ImGuiCol_ButtonActive}) {
        ImVec4 v = ImGui::GetStyleColorVec4(c);
        v.w = 1.0f;
        ImGui::PushStyleColor(c, v);
    }
    if (ImGui::Button(label.c_str())) zoom_.reset();
    ImGui::PopStyleColor(3);
    ImGui::SetCursorScreenPos(keep);
}

// Zoom and pan: two fingers (touch_input.hpp's frames), Ctrl+wheel about the cursor, a mouse dragging a
// zoomed image; a double tap or double click goes back to the whole tensor.
void HeatmapPanel::zoom_gestures() {
    const ImGuiIO& io = ImGui::GetIO();
    const PointerFrame* touch = frame_touch();
    const float lx = io.MousePos.x - origin_[0], ly = io.MousePos.y - origin_[1];  // from the image's top-left
    if (touch && touch->landed) touch_pinched_ = false;
    if (touch && touch->pinching) {  // the pointer is the fingers' centre
        touch_pinched_ = true;
        if (pinch_owned_ || hovered_) {
            pinch_owned_ = true;
            zoom_.pinch_frame(touch->zoom, lx, ly, touch->pan_x, touch->pan_y);
        }
    } else {
        pinch_owned_ = false;
    }
    if (hovered_ && !touch && io.KeyCtrl && io.MouseWheel != 0) zoom_.wheel(io.MouseWheel, lx, ly);
    if (held_ && !touch && zoom_.zoomed() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        zoom_.pinch(1, 0, 0, io.MouseDelta.x, io.MouseDelta.y);
        press_spent_ = true;
    }
    const bool twice = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) || (touch && touch->double_tap);
    if (hovered_ && zoom_.zoomed() && twice) {  // unzoomed, two quick taps on cells select as two taps
        zoom_.reset();
        press_spent_ = true;
    }
    if (zoom_.zoom() == 1.0f) zoom_.reset();  // unzoomed, the image sits in its place
}

// Over the image: the tooltip of the element under the mouse; a click (its release) selects it unless the
// press panned or went back to the whole tensor, a right click clears.
void HeatmapPanel::handle_mouse(session::ShownSource& source) {
    const PointerFrame* touch = frame_touch();
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const auto e = hovered_ ? element_under(mp.x, mp.y) : std::nullopt;
    if (e && !(touch && touch_pinched_)) tooltip(source.shown(), *e);  // no tooltip after two fingers
    if (released_ && e && !press_spent_) {
        source.select(*e);
        clicked = *e;
    }
    if (!held_) press_spent_ = false;
    if (hovered_ && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) source.select(std::nullopt);
}

void HeatmapPanel::tooltip(const session::ShownTensors& s, const core::Index4& e) const {
    const core::NormResult& r = s.result();
    const std::int64_t i = s.x().offset(e[0], e[1], e[2], e[3]);
    const std::int64_t st = r.layout.stat_of(i);
    const auto si = static_cast<std::size_t>(st);
    const double x = s.x().data[static_cast<std::size_t>(i)];
    const double y = r.y.data[static_cast<std::size_t>(i)];
    ImGui::BeginTooltip();
    ImGui::Text(tr("element %s"), core::element_text(s.method(), s.x().shape, e).c_str());
    if (s.values_only()) {  // a difference pane: two given tensors, no statistics of its own
        ImGui::Text("left = %.6g   right = %.6g   right − left = %.6g", x, y, y - x);
        ImGui::EndTooltip();
        return;
    }
    ImGui::Text("x = %.6g", x);
    ImGui::Text(tr("statistic #%lld (of %lld, %lld elements each)"), static_cast<long long>(st),
                static_cast<long long>(r.layout.stat_count), static_cast<long long>(r.layout.count()));
    if (s.method() == core::Method::Rms) {
        ImGui::Text("mean(x²) = %.6g", r.mean_square[si]);
        ImGui::Text("x̂ = x / √(mean(x²) + ε) = %.6g", x * r.rstd[si]);
    } else {
        ImGui::Text("μ = %.6g   σ² = %.6g%s", r.mean[si], r.var[si],
                    r.stats_from_running ? tr("  (running stats, eval)") : "");
        ImGui::Text("x̂ = (x − μ) / √(σ² + ε) = %.6g", (x - r.mean[si]) * r.rstd[si]);
    }
    ImGui::Text("y = %.6g", y);
    ImGui::EndTooltip();
}

void HeatmapPanel::draw_legend(const session::ShownTensors& s) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const float sw = std::round(fs * 0.85f);  // swatch size follows the font (presenter mode)
    ImGui::Spacing();
    if (mode == plan::HeatmapMode::Statistics) {
        const core::StatLayout& l = s.layout();
        ImVec2 p = ImGui::GetCursorScreenPos();
        const int shown = static_cast<int>(std::min<std::int64_t>(l.stat_count, 16));
        for (int i = 0; i < shown; ++i)
            dl->AddRectFilled(ImVec2(p.x + static_cast<float>(i) * (sw + 2), p.y + 2),
                              ImVec2(p.x + static_cast<float>(i) * (sw + 2) + sw, p.y + 2 + sw),
                              to_imgui(stat_color(i, l.stat_count)));
        ImGui::Dummy(ImVec2(static_cast<float>(shown) * (sw + 2) + 4, sw + 4));
        ImGui::SameLine();
        // RMSNorm has no μ; BatchNorm in eval mode uses the running statistics, not the groups' own.
        const char* legend = s.method() == core::Method::Rms
                                 ? "%lld statistics of %lld elements, each scaled by its own root mean square."
                             : s.result().stats_from_running
                                 ? "%lld channels of %lld elements, each normalized with its running_mean and "
                                   "running_var (eval mode)."
                                 : "%lld statistics of %lld elements, each normalized with its own μ, σ².";
        wrapped_text(strf(tr(legend), static_cast<long long>(l.stat_count), static_cast<long long>(l.count())));
        return;
    }
    const float w = std::max(fs * 4, std::min(fs * 20, ImGui::GetContentRegionAvail().x - fs * 10));
    ImVec2 p = ImGui::GetCursorScreenPos();
    const std::string label = !legend_label.empty()               ? legend_label
                              : mode == plan::HeatmapMode::Input  ? "x"
                              : mode == plan::HeatmapMode::Output ? "y"
                                                                  : "y − x";
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine();
    ImGui::Text("%.3g", vmin_ == 0.0f ? 0.0f : vmin_);  // no "-0"
    ImGui::SameLine();
    p = ImGui::GetCursorScreenPos();
    const int segs = 64;
    for (int i = 0; i < segs; ++i) {
        auto c0 = to_imgui(lut_colors_[static_cast<std::size_t>(i * (kLutSize - 1) / segs)]);
        auto c1 = to_imgui(lut_colors_[static_cast<std::size_t>((i + 1) * (kLutSize - 1) / segs)]);
        float x0 = p.x + w * static_cast<float>(i) / segs, x1 = p.x + w * static_cast<float>(i + 1) / segs;
        dl->AddRectFilledMultiColor(ImVec2(x0, p.y + 2), ImVec2(x1, p.y + 2 + sw), c0, c1, c1, c0);
    }
    ImGui::Dummy(ImVec2(w, sw + 4));
    ImGui::SameLine();
    ImGui::Text("%.3g", vmax_);
}

}  // namespace normlab::views
