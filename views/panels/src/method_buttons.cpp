#include "normlab/views/method_buttons.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include "normlab/session/state_edits.hpp"

#include <imgui.h>

namespace normlab::views {

std::optional<std::string> set_method(session::Session& s, core::Method m) {
    if (s.state().spec.method == m) return std::nullopt;
    return s.apply(session::with_method(s.state(), m, s.x().shape.c), session::TensorChange::keep());
}

namespace {

std::optional<std::string> method_buttons(session::Session& s) {
    if (s.state().exercise.hides(core::Control::Method)) return std::nullopt;
    const bool locked = s.state().exercise.locks(core::Control::Method);
    if (locked) ImGui::BeginDisabled();
    std::optional<std::string> err;
    int key = 1;
    for (const core::MethodInfo& m : core::methods()) {
        const bool on = s.state().spec.method == m.id;
        std::string label = std::to_string(key) + " " + m.label;
        if (key++ > 1) same_line_if_fits(ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2);
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.0f, 0.45f, 0.70f, 1));
        if (ImGui::Button(label.c_str())) err = set_method(s, m.id);
        if (on) ImGui::PopStyleColor();
    }
    if (locked) ImGui::EndDisabled();
    return err;
}

}  // namespace

std::optional<std::string> presenter_row(session::Session& s, HeatmapPanel& heatmap, bool modes) {
    auto err = method_buttons(s);
    if (!modes) return err;
    const char* names[] = {"input x", "output y", "y − x", "statistic groups"};
    int m = static_cast<int>(heatmap.mode);
    const ImGuiStyle& st = ImGui::GetStyle();
    for (int i = 0; i < 4; ++i) {
        // After the method buttons on their last row when it has room (one row less on 720 lines).
        same_line_if_fits(ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(tr(names[i])).x);
        ImGui::RadioButton(tr(names[i]), &m, i);
    }
    heatmap.mode = static_cast<plan::HeatmapMode>(m);
    return err;
}

}  // namespace normlab::views
