// The Train view's curves (train_view.hpp: train_curves): the loss and the accuracy over the steps,
// per run in its colour, drawn with ImGui's draw list from the logs the devices wrote.
#include "normlab/views/colormap.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/views/train_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace normlab::views {
namespace {

struct Axes {
    ImVec2 a, b;  // the plot's corners (top left, bottom right)
    float x_max = 1, y_max = 1;
    ImVec2 at(float step, float v) const {
        const float x = a.x + (b.x - a.x) * std::clamp(step / x_max, 0.0f, 1.0f);
        const float y = b.y - (b.y - a.y) * std::clamp(v / y_max, 0.0f, 1.0f);
        return ImVec2(x, y);
    }
};

// The batch's values (one per step; at most one point per pixel column, their mean) as a thin line.
void batch_line(ImDrawList* dl, const Axes& ax, const std::vector<float>& v, ImU32 colour) {
    if (v.size() < 2) return;
    const auto px = static_cast<std::size_t>(std::max(2.0f, ax.b.x - ax.a.x));
    const std::size_t stride = std::max<std::size_t>(1, (v.size() + px - 1) / px);
    std::vector<ImVec2> pts;
    for (std::size_t i = 0; i < v.size(); i += stride) {
        const std::size_t end = std::min(v.size(), i + stride);
        float sum = 0;
        for (std::size_t j = i; j < end; ++j) sum += v[j];
        pts.push_back(ax.at(static_cast<float>(i + end) / 2.0f, sum / static_cast<float>(end - i)));
    }
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), colour, ImDrawFlags_None, 1.0f);
}

// The validation set's values at their steps, thick.
void val_line(ImDrawList* dl, const Axes& ax, const std::vector<int>& steps, const std::vector<float>& v,
              ImU32 colour) {
    std::vector<ImVec2> pts;
    for (std::size_t i = 0; i < v.size(); ++i) pts.push_back(ax.at(static_cast<float>(steps[i]), v[i]));
    if (pts.size() >= 2) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), colour, ImDrawFlags_None, 2.5f);
    if (pts.size() == 1) dl->AddCircleFilled(pts[0], 3.0f, colour);
}

// One plot at the cursor, `w` × `h`: its title, the frame, the axes' ends, every run's two lines.
void plot(const TrainRunSet& runs, bool loss, float w, float h) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted(loss ? tr("loss (thin: the batch, thick: validation)")
                                : tr("accuracy (thin: the batch, thick: validation)"));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float label_w = ImGui::CalcTextSize("0.00").x + 6, line_h = ImGui::GetTextLineHeight();
    Axes ax;
    ax.a = ImVec2(p.x + label_w, p.y + 4);
    ax.b = ImVec2(p.x + w - 4, p.y + std::max(h - line_h - 4, 20.0f));
    float y_max = loss ? 0.0f : 1.0f;
    for (const auto& r : runs.runs()) {
        ax.x_max = std::max(ax.x_max, static_cast<float>(r.config.steps));
        if (!loss) continue;
        // The first steps' batch losses and every validation loss set the scale (the noisy batch
        // losses of later steps are clipped at it).
        const auto& c = r.curves;
        for (std::size_t i = 0; i < std::min<std::size_t>(c.loss.size(), 20); ++i) y_max = std::max(y_max, c.loss[i]);
        for (float v : c.val_loss) y_max = std::max(y_max, v);
    }
    ax.y_max = loss ? (y_max > 0 && std::isfinite(y_max) ? y_max * 1.05f : 1.0f) : 1.0f;
    dl->AddRectFilled(ax.a, ax.b, IM_COL32(30, 30, 34, 255));
    dl->AddRect(ax.a, ax.b, IM_COL32(110, 110, 120, 255));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", ax.y_max);
    dl->AddText(ImVec2(p.x, ax.a.y), ImGui::GetColorU32(ImGuiCol_Text), buf);
    dl->AddText(ImVec2(p.x, ax.b.y - line_h), ImGui::GetColorU32(ImGuiCol_Text), "0");
    std::snprintf(buf, sizeof buf, "%d", static_cast<int>(ax.x_max));
    dl->AddText(ImVec2(ax.b.x - ImGui::CalcTextSize(buf).x, ax.b.y + 2), ImGui::GetColorU32(ImGuiCol_Text), buf);
    dl->AddText(ImVec2(ax.a.x, ax.b.y + 2), ImGui::GetColorU32(ImGuiCol_Text), tr("step"));
    dl->PushClipRect(ax.a, ax.b, true);
    for (const auto& r : runs.runs()) {
        const Rgb rgb = stat_color(r.colour, kMaxTrainRuns, GroupPalette::OkabeIto);
        batch_line(dl, ax, loss ? r.curves.loss : r.curves.acc, to_imgui(rgb, 0.45f));
        val_line(dl, ax, r.curves.val_step, loss ? r.curves.val_loss : r.curves.val_acc, to_imgui(rgb));
    }
    dl->PopClipRect();
    ImGui::Dummy(ImVec2(w, h));
    ImGui::EndGroup();
}

}  // namespace

void train_curves(const TrainRunSet& runs, float width, float height) {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const bool side_by_side = width > ImGui::GetFontSize() * 30;
    const float w = side_by_side ? std::floor((width - ImGui::GetStyle().ItemSpacing.x) / 2) : width;
    const float h = std::max(4 * line, side_by_side ? height - line - 8 : (height - 2 * line - 8) / 2);
    plot(runs, true, w, h);
    if (side_by_side) ImGui::SameLine();
    plot(runs, false, w, h);
}

}  // namespace normlab::views
