#include "normlab/views/language_menu.hpp"

#include "normlab/views/i18n.hpp"

#include <imgui.h>

namespace normlab::views {

std::optional<core::Language> language_menu(bool loadable) {
    std::optional<core::Language> picked;
    if (!ImGui::BeginMenu(tr_id("Language", "lang").c_str())) return picked;
    if (ImGui::MenuItem("English", "L", language() == core::Language::En)) picked = core::Language::En;
    const bool off = !cjk_font() && !loadable;
    if (off) ImGui::BeginDisabled();
    if (ImGui::MenuItem(cjk_font() ? "中文 (简体)" : "Chinese (Simplified)", "L", language() == core::Language::Zh))
        picked = core::Language::Zh;
    if (off) {
        ImGui::EndDisabled();
        ImGui::TextDisabled("%s", cjk_missing_message().c_str());
    }
    ImGui::EndMenu();
    return picked;
}

}  // namespace normlab::views
