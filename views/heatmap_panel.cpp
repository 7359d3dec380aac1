#include "heatmap_panel.hpp"

#include "i18n.hpp"
#include "wrapped_text.hpp"
#include "normlab/core/partition_set.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::app {
namespace {
const char* kModeNames[] = {"input x", "output y", "y − x", "statistic groups"};
}  // namespace

HeatmapPanel::HeatmapPanel(std::unique_ptr<HeatmapImage> image) : image_(std::move(image)) {}

void HeatmapPanel::show_view(const ViewSettings& v) {
    for (int i = 0; i < 4; ++i)
        if (v.heatmap == kHeatmapModeIds[i]) mode = static_cast<HeatmapMode>(i);
    for (int i = 0; i < 3; ++i)
        if (v.colormap == kColormapIds[i]) colormap = static_cast<Colormap>(i);
    for (int i = 0; i < 2; ++i)
        if (v.palette == kGroupPaletteIds[i]) set_group_palette(static_cast<GroupPalette>(i));
}

ViewSettings HeatmapPanel::view() const {
    ViewSettings v;
    v.heatmap = kHeatmapModeIds[static_cast<int>(mode)];
    v.colormap = kColormapIds[static_cast<int>(colormap)];
    v.palette = kGroupPaletteIds[static_cast<int>(current_group_palette())];
    return v;
}

void HeatmapPanel::draw(ShownSource& source) {
    const ShownTensors& shown = source.shown();
    if (show_controls) draw_controls(shown.x().shape, shown.method());
    update_value_range(source);
    if (lut_map_ != static_cast<int>(colormap)) {
        lut_colors_ = colormap_lut(colormap);
        lut_map_ = static_cast<int>(colormap);
    }
    const bool hovered = place_image(shown);
    draw_cell_values(shown);
    draw_selection(shown);
    if (hovered) handle_mouse(source);
    if (show_legend) {  // its height is measured: a legend wrapped onto two lines gets that room next frame
        const float y0 = ImGui::GetCursorPosY();
        draw_legend(shown);
        legend_used_ = ImGui::GetCursorPosY() - y0;
    }
}

// Mode buttons, the colormap choice and the help line.
void HeatmapPanel::draw_controls(const Shape4& shape, Method method) {
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
    mode = static_cast<HeatmapMode>(m);
    if (mode != HeatmapMode::Statistics) {
        const float w = ImGui::GetFontSize() * (compact ? 9 : 13);
        same_line_if_fits(w);
        ImGui::SetNextItemWidth(w);
        int cm = static_cast<int>(colormap);
        const char* names[] = {tr(kColormapNames[0]), tr(kColormapNames[1]), tr(kColormapNames[2])};
        if (ImGui::Combo("##colormap", &cm, names, 3)) colormap = static_cast<Colormap>(cm);
    }
    if (compact) return;                                                   // a phone: tap, long press (touch_input.hpp)
    const bool tokens = method == Method::Layer || method == Method::Rms;  // (N, L, D); else (N, C, L)
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
void HeatmapPanel::update_value_range(ShownSource& source) {
    if (fixed_range) {
        vmin_ = fixed_range->first;
        vmax_ = fixed_range->second;
        return;
    }
    const Histograms& h = source.shown().histograms();
    const HistogramResult& src = mode == HeatmapMode::Input    ? h.input
                                 : mode == HeatmapMode::Output ? h.output
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

// Fits the tiles into the space left above the legend, reserves it and has the image drawn there.
bool HeatmapPanel::place_image(const ShownTensors& s) {
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
    ImGui::Dummy(ImVec2(w, h));
    const bool hovered = ImGui::IsItemHovered();
    const auto sel = s.selected_stat();
    HeatmapPicture picture{&s,
                           s.generation(),
                           s.buffer_epoch(),
                           colormap,
                           current_group_palette(),
                           fill_push(layout_, mode, vmin_, vmax_, s.layout(), sel ? *sel : -1, kLutSize)};
    image_->draw(picture, ImVec2(origin_[0], origin_[1]), ImVec2(w, h));
    return hovered;
}

// Cells large enough to read: print each element's value (x, y or y − x) on it, so the
// seeds' small worked examples can be followed number by number.
void HeatmapPanel::draw_cell_values(const ShownTensors& s) const {
    const Shape4& shape = s.x().shape;
    const float font = ImGui::GetFontSize();
    const float cell = layout_.cell / px_;  // in ImGui units
    if (cell < 2.6f * font || shape.numel() > 4096 || s.y().data.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto& xs = s.x().data;
    const auto& ys = s.y().data;
    char text[32];
    for (std::int64_t i = 0; i < shape.numel(); ++i) {
        const auto u = static_cast<std::size_t>(i);
        const double v = mode == HeatmapMode::Output ? ys[u] : mode == HeatmapMode::Difference ? ys[u] - xs[u] : xs[u];
        std::snprintf(text, sizeof text, "%.3g", v);
        auto idx = unravel(shape, i);
        auto p = layout_.element_pos(idx[0], idx[1], idx[2], idx[3]);
        ImVec2 ts = ImGui::CalcTextSize(text);
        if (ts.x > cell - 4) continue;
        ImVec2 at(origin_[0] + p[0] / px_ + (cell - ts.x) * 0.5f, origin_[1] + p[1] / px_ + (cell - ts.y) * 0.5f);
        dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 220), text);  // shadow keeps it legible on any color
        dl->AddText(at, IM_COL32(255, 255, 255, 255), text);
    }
}

// Outline of the selected element (drawn by ImGui over the image).
void HeatmapPanel::draw_selection(const ShownTensors& s) const {
    const auto& sel = s.selection();
    if (!sel) return;
    auto p = layout_.element_pos((*sel)[0], (*sel)[1], (*sel)[2], (*sel)[3]);
    float sz = std::max(layout_.cell / px_, 3.0f);
    ImVec2 a(origin_[0] + p[0] / px_ - 1, origin_[1] + p[1] / px_ - 1), b(a.x + sz + 2, a.y + sz + 2);
    ImGui::GetWindowDrawList()->AddRect(a, b, IM_COL32(255, 255, 0, 255), 0, 0, 2.0f);
}

// Over the image: the tooltip of the element under the mouse; left click selects it, right click clears.
void HeatmapPanel::handle_mouse(ShownSource& source) {
    ImVec2 mp = ImGui::GetIO().MousePos;
    if (auto e = layout_.element_at((mp.x - origin_[0]) * px_, (mp.y - origin_[1]) * px_)) {
        Index4 idx{(*e)[0], (*e)[1], (*e)[2], (*e)[3]};
        tooltip(source.shown(), idx);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            source.select(idx);
            clicked = idx;
        }
    }
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) source.select(std::nullopt);
}

void HeatmapPanel::tooltip(const ShownTensors& s, const Index4& e) const {
    const NormResult& r = s.result();
    const std::int64_t i = s.x().offset(e[0], e[1], e[2], e[3]);
    const std::int64_t st = r.layout.stat_of(i);
    const auto si = static_cast<std::size_t>(st);
    const double x = s.x().data[static_cast<std::size_t>(i)];
    const double y = r.y.data[static_cast<std::size_t>(i)];
    ImGui::BeginTooltip();
    ImGui::Text(tr("element %s"), element_text(s.method(), s.x().shape, e).c_str());
    if (s.values_only()) {  // a difference pane: two given tensors, no statistics of its own
        ImGui::Text("left = %.6g   right = %.6g   right − left = %.6g", x, y, y - x);
        ImGui::EndTooltip();
        return;
    }
    ImGui::Text("x = %.6g", x);
    ImGui::Text(tr("statistic #%lld (of %lld, %lld elements each)"), static_cast<long long>(st),
                static_cast<long long>(r.layout.stat_count), static_cast<long long>(r.layout.count()));
    if (s.method() == Method::Rms) {
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

void HeatmapPanel::draw_legend(const ShownTensors& s) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const float sw = std::round(fs * 0.85f);  // swatch size follows the font (presenter mode)
    ImGui::Spacing();
    if (mode == HeatmapMode::Statistics) {
        const StatLayout& l = s.layout();
        ImVec2 p = ImGui::GetCursorScreenPos();
        const int shown = static_cast<int>(std::min<std::int64_t>(l.stat_count, 16));
        for (int i = 0; i < shown; ++i)
            dl->AddRectFilled(ImVec2(p.x + static_cast<float>(i) * (sw + 2), p.y + 2),
                              ImVec2(p.x + static_cast<float>(i) * (sw + 2) + sw, p.y + 2 + sw),
                              to_imgui(stat_color(i, l.stat_count)));
        ImGui::Dummy(ImVec2(static_cast<float>(shown) * (sw + 2) + 4, sw + 4));
        ImGui::SameLine();
        // RMSNorm has no μ; BatchNorm in eval mode uses the running statistics, not the groups' own.
        const char* legend = s.method() == Method::Rms
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
    const std::string label = !legend_label.empty()         ? legend_label
                              : mode == HeatmapMode::Input  ? "x"
                              : mode == HeatmapMode::Output ? "y"
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

}  // namespace normlab::app
