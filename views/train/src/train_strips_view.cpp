// The Train view's layers (train_view.hpp: train_layers): per hidden layer of the selected run, its
// Inspect button and its strip — the histograms of its norm's input over the steps (train_strips.hpp),
// x the step, y the value, each bin's colour its count (viridis, over the column's largest count).
#include "normlab/views/colormap.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/views/train_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::views {
namespace {

// One layer's strip at the cursor in w × h: its columns over [0, steps], its values over [lo, hi].
void strip(const std::vector<StripColumn>& cols, int steps, float w, float h) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a = ImGui::GetCursorScreenPos(), b(a.x + w, a.y + h);
    dl->AddRectFilled(a, b, IM_COL32(30, 30, 34, 255));
    double lo = 0, hi = 0;
    bool any = false;
    for (const auto& col : cols) {
        const plan::HistogramResult& c = col.hist;
        if (c.count == 0 || !(c.max >= c.min)) continue;
        lo = any ? std::min(lo, c.min) : c.min;
        hi = any ? std::max(hi, c.max) : c.max;
        any = true;
    }
    if (any) {
        static const std::vector<Rgb> lut = colormap_lut(Colormap::Viridis);
        const double span = std::max(hi - lo, 1e-12);
        const float x_scale = w / static_cast<float>(std::max(1, steps));
        dl->PushClipRect(a, b, true);
        int prev = 0;
        for (const auto& col : cols) {
            const float x0 = a.x + static_cast<float>(prev) * x_scale;
            const float x1 = a.x + static_cast<float>(col.step) * x_scale;
            prev = col.step;
            const plan::HistogramResult& c = col.hist;
            const std::uint32_t top = c.bins.empty() ? 0 : *std::max_element(c.bins.begin(), c.bins.end());
            if (top == 0) continue;
            const double bw = (c.max - c.min) / static_cast<double>(c.bins.size());
            for (std::size_t j = 0; j < c.bins.size(); ++j) {
                if (c.bins[j] == 0) continue;
                // The bin's value range; a column of one value (hi = lo) is one row of a pixel.
                const double v0 = c.min + bw * static_cast<double>(j), v1 = v0 + bw;
                const float y0 = b.y - static_cast<float>((v1 - lo) / span) * h;
                const float y1 = std::max(b.y - static_cast<float>((v0 - lo) / span) * h, y0 + 1.0f);
                const float t = static_cast<float>(c.bins[j]) / static_cast<float>(top);
                const Rgb& rgb = lut[std::min<std::size_t>(lut.size() - 1, static_cast<std::size_t>(t * 255.0f))];
                dl->AddRectFilled(ImVec2(x0, y0), ImVec2(std::max(x1, x0 + 1.0f), y1), to_imgui(rgb));
            }
        }
        dl->PopClipRect();
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", hi);
        dl->AddText(ImVec2(a.x + 2, a.y), IM_COL32(230, 230, 230, 255), buf);
        std::snprintf(buf, sizeof buf, "%.3g", lo);
        dl->AddText(ImVec2(a.x + 2, b.y - ImGui::GetTextLineHeight()), IM_COL32(230, 230, 230, 255), buf);
    }
    dl->AddRect(a, b, IM_COL32(110, 110, 120, 255));
    ImGui::Dummy(ImVec2(w, h));
}

}  // namespace

std::optional<int> train_layers(const TrainRunSet& runs, int selected, float width, float height,
                                std::vector<std::array<float, 2>>& buttons) {
    buttons.clear();
    if (selected < 0 || selected >= static_cast<int>(runs.runs().size())) return std::nullopt;
    const TrainRun& r = runs.runs()[static_cast<std::size_t>(selected)];
    std::optional<int> inspect;
    ImGui::BeginChild("##train_layers", ImVec2(width, height), false);
    const char* where = r.config.norm_after ? tr("the activation's output") : tr("the Linear's or Conv2d's output");
    ImGui::TextWrapped(tr("Layers of run %d: the histogram of each norm's input (%s) every %d steps; "
                          "Inspect opens the last batch's as the tensor"),
                       selected + 1, where, r.strips.every);
    const int depth = static_cast<int>(r.strips.layers.size());
    const float line = ImGui::GetFrameHeightWithSpacing();
    const float strip_h = std::max(2 * line, (ImGui::GetContentRegionAvail().y - 4) / std::max(1, depth) - 4);
    const float label_w = ImGui::CalcTextSize(tr("Inspect")).x + ImGui::GetStyle().FramePadding.x * 2 + 8;
    for (int i = 0; i < depth; ++i) {
        ImGui::PushID(i);
        ImGui::BeginGroup();
        ImGui::Text(tr("layer %d"), i + 1);
        ImGui::BeginDisabled(!r.device || r.steps_done == 0);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        buttons.push_back({at.x, at.y});
        if (ImGui::Button(tr_id("Inspect", "inspect").c_str())) inspect = i;
        ImGui::EndDisabled();
        ImGui::EndGroup();
        ImGui::SameLine(label_w);
        strip(r.strips.layers[static_cast<std::size_t>(i)], r.config.steps,
              std::max(20.0f, ImGui::GetContentRegionAvail().x), strip_h);
        ImGui::PopID();
    }
    ImGui::EndChild();
    return inspect;
}

}  // namespace normlab::views
