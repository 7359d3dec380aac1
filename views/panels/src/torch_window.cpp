#include "normlab/views/torch_window.hpp"

#include "normlab/views/i18n.hpp"

#include "normlab/classroom/torch_code.hpp"

#include <imgui.h>

namespace normlab::views {

std::string copy_torch_code(const session::Session& s) {
    std::string code = classroom::torch_code(s.state(), s.x().shape);
    ImGui::SetClipboardText(code.c_str());
    return code;
}

void torch_window(const std::string& code, bool& open) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(d.x * 0.5f, d.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(d.x * 0.55f, d.y * 0.5f), ImGuiCond_Appearing);
    ImGui::Begin(tr_id("PyTorch code (copied to the clipboard)", "torch").c_str(), &open,
                 ImGuiWindowFlags_NoSavedSettings);
    if (ImGui::Button(tr("Copy again"))) ImGui::SetClipboardText(code.c_str());
    ImGui::Separator();
    ImGui::TextUnformatted(code.c_str());
    ImGui::End();
}

}  // namespace normlab::views
