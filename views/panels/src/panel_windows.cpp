#include "normlab/views/panel_windows.hpp"

#include "normlab/views/i18n.hpp"

#include <algorithm>

namespace normlab::views {

LayoutMetrics measure_layout(float top) {
    const ImGuiStyle& st = ImGui::GetStyle();
    LayoutMetrics m;
    m.width = ImGui::GetIO().DisplaySize.x;
    m.height = ImGui::GetIO().DisplaySize.y;
    m.top = top;
    m.status_h = status_bar_height();
    m.font_size = ImGui::GetFontSize();
    m.text_line_h = ImGui::GetTextLineHeight();
    m.line_spacing_h = ImGui::GetTextLineHeightWithSpacing();
    m.frame_h = ImGui::GetFrameHeight();
    m.padding_x = st.WindowPadding.x;
    m.padding_y = st.WindowPadding.y;
    m.item_spacing_y = st.ItemSpacing.y;
    return m;
}

float status_bar_height() {
    return std::max(ImGui::GetFrameHeightWithSpacing() + 6,
                    ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().WindowPadding.y + 2);
}

void begin_panel(const std::string& name, const Rect& r, ImGuiWindowFlags extra) {
    constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                        ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
    ImGui::Begin(name.c_str(), nullptr, kFixed | extra);
}

std::string heatmap_window_title(const session::Session& session, HeatmapArea area) {
    const std::string method = core::method_torch_name(session.state().spec.method, session.x().shape);
    std::string title;
    if (area.compare)
        title = tr("Compare: the same tensor, four methods (statistics mode)");
    else if (area.pair)
        title = area.gradient ? tr("Side by side: one Jacobian row ∂y_k/∂x each") : tr("Side by side and difference");
    else if (area.gradient)
        title = std::string(tr("Gradient")) + ": " + method;
    else
        title = std::string(tr("Heatmap")) + ": " + method;
    return title + "###heatmap";
}

}  // namespace normlab::views
