#include "normlab/views/exercise_ui.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include "normlab/session/state_edits.hpp"

#include <imgui.h>

namespace normlab::views {

// A panel an exercise hides keeps its place and says so (the class is meant to work it out).
bool hidden_panel(const session::Session& s, core::Control c) {
    if (!s.state().exercise.hides(c)) return false;
    ImGui::TextDisabled("%s", tr("(hidden in this exercise)"));
    return true;
}

// The teacher's side of an exercise: which controls the scene hides or locks. Each change is an
// edit of the exercise alone (no lock covers the exercise itself); save or hand out the scene after.
std::optional<std::string> exercise_window(session::Session& s, bool& open, const char* save_hint) {
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowSize(ImVec2(em * 26, em * 33), ImGuiCond_Appearing);
    if (!ImGui::Begin(tr_id("Exercise: hide and lock controls", "exercise").c_str(), &open)) {
        ImGui::End();
        return std::nullopt;
    }
    wrapped_text(
        tr("Hidden controls are not drawn; locked ones are greyed out. Neither can be changed, "
           "by the panels or by the keys."));
    wrapped_text(tr(save_hint));
    core::Exercise ex = s.state().exercise;
    if (ImGui::BeginTable("controls", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn(tr("control"));
        ImGui::TableSetupColumn(tr("hide"));
        ImGui::TableSetupColumn(tr("lock"));
        ImGui::TableHeadersRow();
        for (int i = 0; i < core::kControlCount; ++i) {
            const auto c = static_cast<core::Control>(i);
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(core::control_name(c));
            ImGui::TableNextColumn();
            bool h = ex.hides(c), l = (ex.locked >> i) & 1u;
            if (ImGui::Checkbox("##h", &h)) ex.hide(c, h);
            ImGui::TableNextColumn();
            if (!core::is_panel(c) && ImGui::Checkbox("##l", &l)) ex.lock(c, l);
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (ImGui::Button(tr("clear"))) ex = {};
    std::optional<std::string> err;
    if (!(ex == s.state().exercise))
        err = s.apply(session::with_exercise(s.state(), ex), session::TensorChange::keep());
    ImGui::End();
    return err;
}

}  // namespace normlab::views
