#include "language_menu.hpp"

#include "i18n.hpp"

#include <imgui.h>

namespace normlab::app {

std::optional<Language> language_menu() {
    std::optional<Language> picked;
    if (!ImGui::BeginMenu(tr_id("Language", "lang").c_str())) return picked;
    if (ImGui::MenuItem("English", "L", language() == Language::En)) picked = Language::En;
    if (!cjk_font()) ImGui::BeginDisabled();
    if (ImGui::MenuItem("中文 (简体)", "L", language() == Language::Zh)) picked = Language::Zh;
    if (!cjk_font()) {
        ImGui::EndDisabled();
        ImGui::TextDisabled("%s", cjk_missing_message().c_str());
    }
    ImGui::EndMenu();
    return picked;
}

}  // namespace normlab::app
