#include "normlab/views/histogram_view.hpp"

#include "normlab/views/i18n.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace normlab::views {
namespace {

constexpr ImU32 kInputColor = IM_COL32(90, 150, 230, 255);
constexpr ImU32 kOutputColor = IM_COL32(240, 150, 60, 255);

void plot(const char* title, const plan::HistogramResult& h, ImU32 color, ImVec2 size) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted(tr(title));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    const float label_h = ImGui::GetTextLineHeight();
    const float plot_h = std::max(
        20.0f, size.y - 2 * label_h - ImGui::GetTextLineHeightWithSpacing() - 4 * ImGui::GetStyle().ItemSpacing.y);
    ImVec2 a(p.x, p.y), b(p.x + size.x, p.y + plot_h);
    dl->AddRectFilled(a, b, IM_COL32(30, 30, 34, 255));
    const std::uint32_t top = h.bins.empty() ? 0 : *std::max_element(h.bins.begin(), h.bins.end());
    const float bw = size.x / static_cast<float>(std::max<std::size_t>(1, h.bins.size()));
    for (std::size_t i = 0; i < h.bins.size() && top > 0; ++i) {
        float bh = plot_h * static_cast<float>(h.bins[i]) / static_cast<float>(top);
        if (h.bins[i] == 0) continue;
        dl->AddRectFilled(ImVec2(a.x + bw * static_cast<float>(i), b.y - bh),
                          ImVec2(a.x + bw * static_cast<float>(i + 1) - (bw > 3 ? 1.0f : 0.0f), b.y), color);
    }
    const double range = h.max - h.min;
    auto xpos = [&](double v) {
        return range > 0 ? a.x + static_cast<float>((v - h.min) / range) * size.x : a.x + size.x / 2;
    };
    if (h.count > 0) {
        const double sd = std::sqrt(h.var);
        dl->AddLine(ImVec2(xpos(h.mean), a.y), ImVec2(xpos(h.mean), b.y), IM_COL32(255, 255, 255, 255), 2.0f);
        for (double v : {h.mean - sd, h.mean + sd})
            if (v >= h.min && v <= h.max)
                for (float y = a.y; y < b.y; y += 6)
                    dl->AddLine(ImVec2(xpos(v), y), ImVec2(xpos(v), std::min(y + 3, b.y)), IM_COL32(230, 230, 230, 200),
                                1.0f);
    }
    ImGui::Dummy(ImVec2(size.x, plot_h));
    if (h.count > 0) {
        ImGui::Text("%.3g", h.min);
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.3g", h.max);
        ImGui::SameLine(size.x - ImGui::CalcTextSize(buf).x);  // relative to the group's start
        ImGui::TextUnformatted(buf);
        ImGui::Text("n=%lld  μ=%.3g  σ=%.3g", static_cast<long long>(h.count), h.mean, std::sqrt(h.var));
    } else {
        ImGui::TextDisabled("%s", tr("(nothing selected)"));
    }
    ImGui::EndGroup();
}

}  // namespace

std::optional<std::uint32_t> HistogramView::draw(const session::Histograms& h, std::uint32_t bins, bool presenter) {
    std::optional<std::uint32_t> moved;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    if (presenter) {
        ImGui::TextDisabled(tr("white line: μ, dashed: μ ± σ (computed on the %s)"), compute_unit(on_cpu));
        ImVec2 avail = ImGui::GetContentRegionAvail();
        ImVec2 size((avail.x - gap) / 2, avail.y - 4);
        if (h.has_group) {
            plot("input x, selected group", h.group_input, kInputColor, size);
            ImGui::SameLine();
            plot("output y, selected group", h.group_output, kOutputColor, size);
        } else {
            plot("input x, whole tensor", h.input, kInputColor, size);
            ImGui::SameLine();
            plot("output y, whole tensor", h.output, kOutputColor, size);
        }
        return moved;
    }
    if (show_bins) {
        int b = static_cast<int>(bins);
        ImGui::SetNextItemWidth(160);
        if (ImGui::SliderInt(tr("bins"), &b, 4, static_cast<int>(plan::kHistogramMaxBins)))
            moved = static_cast<std::uint32_t>(b);
        ImGui::SameLine();
    }
    ImGui::TextDisabled(tr("white line: μ, dashed: μ ± σ (computed on the %s)"), compute_unit(on_cpu));
    if (h.whole_stride > 1) {
        ImGui::SameLine();
        ImGui::TextDisabled(tr("whole tensor: every %lld-th element"), static_cast<long long>(h.whole_stride));
    }
    ImVec2 avail = ImGui::GetContentRegionAvail();
    ImVec2 size((avail.x - 3 * gap) / 4, avail.y - ImGui::GetTextLineHeightWithSpacing() - 4);
    plot("input x, whole tensor", h.input, kInputColor, size);
    ImGui::SameLine();
    plot("output y, whole tensor", h.output, kOutputColor, size);
    ImGui::SameLine();
    plot("input x, selected group", h.has_group ? h.group_input : plan::HistogramResult{}, kInputColor, size);
    ImGui::SameLine();
    plot("output y, selected group", h.has_group ? h.group_output : plan::HistogramResult{}, kOutputColor, size);
    return moved;
}

}  // namespace normlab::views
