// AppUi's File menu actions: the save and load scene windows, the one-line scene on the
// clipboard, the exports and the screenshot's file.
#include "app_ui.hpp"

#include "exporter.hpp"
#include "normlab/views/i18n.hpp"

#include "normlab/core/error.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/io/atomic_file.hpp"
#include "normlab/io/scene_file.hpp"

#include <filesystem>
#include <utility>

namespace normlab::app {

void AppUi::scene_popups() {
    if (open_save_) ImGui::OpenPopup("##save"), open_save_ = false;
    if (open_load_) ImGui::OpenPopup("##load"), open_load_ = false;
    char buf[512];
    for (int which = 0; which < 2; ++which) {
        const char* id = which == 0 ? "##save" : "##load";
        if (!ImGui::BeginPopup(id)) continue;
        ImGui::TextUnformatted(which == 0 ? views::tr("Save the whole state as a scene file:")
                                          : views::tr("Load a scene file:"));
        std::snprintf(buf, sizeof buf, "%s", scene_path_.c_str());
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter = ImGui::InputText("##path", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
        scene_path_ = buf;
        if (ImGui::Button(which == 0 ? views::tr("Save") : views::tr("Load")) || enter) {
            try {
                if (which == 0) {
                    core::State st = session_.state();
                    st.view_json = classroom::view_to_json(shell_.view());
                    io::save_scene(st, scene_path_);
                    message(std::string(views::tr("saved ")) + scene_path_);
                } else {
                    open_scene(io::load_scene(scene_path_), scene_path_);
                    message(std::string(views::tr("loaded ")) + scene_path_);
                }
            } catch (const core::InputError& e) {
                message(e.what(), true);
            }
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

// A scene loaded or pasted: its state (with its exercise) and its view, or nothing at all. It ends an
// open experiment and lesson, whose text would no longer describe what is shown.
void AppUi::open_scene(const core::State& st, const std::string& name) { shell_.scene_shown(replace_scene(st, name)); }

classroom::ViewSettings AppUi::replace_scene(const core::State& st, const std::string& name) {
    classroom::ViewSettings v = classroom::parse_view(st.view_json, name);
    if (auto err = session_.replace(st, session::TensorChange::from_source())) throw core::InputError(*err);
    return v;
}

// The link of what is shown (the lesson step, language, presenter mode and the scene with its view:
// normlab/session/app_link.hpp) as one line on the clipboard, as the browser's address carries it.
void AppUi::copy_scene() {
    core::State st = session_.state();
    st.view_json = classroom::view_to_json(shell_.view());
    session::AppLink link = shell_.link_parts();
    link.scene = io::scene_to_line(st);
    ImGui::SetClipboardText(session::link_text(link).c_str());
    message(views::tr("scene copied to the clipboard as one line"));
}

// A link or a scene line (or a scene's JSON) from the clipboard; a bad one changes nothing.
void AppUi::paste_scene() {
    const char* text = ImGui::GetClipboardText();
    const std::string name = "pasted scene";
    try {
        const session::AppLink link = session::parse_link(text ? text : "", name);
        // Refused before anything changes; a link without a lesson needs a scene.
        if (!link.scene.empty() || !link.lesson)
            io::scene_from_line(link.scene.empty() ? (text ? text : "") : link.scene, name);
        std::string error;
        shell_.open_link(link, [&](const std::string& scene) -> std::optional<classroom::ViewSettings> {
            try {
                return replace_scene(scene.empty() ? core::State{} : io::scene_from_line(scene, name), name);
            } catch (const core::InputError& e) {
                error = e.what();
                return std::nullopt;
            }
        });
        if (error.empty())
            message(views::tr("scene pasted from the clipboard"));
        else
            message(error, true);
    } catch (const core::InputError& e) {
        message(e.what(), true);
    }
}

void AppUi::export_files() {
    try {
        auto files = export_all(session_, export_dir_, export_stem(session_));
        message(std::string(views::tr("exported ")) + std::to_string(files.size()) + " " + views::tr("files to") + " " +
                export_dir_);
    } catch (const core::InputError& e) {
        message(e.what(), true);
    }
}

void AppUi::export_png() { save_export_png(export_stem(session_) + "-figure.png", shell_.figure_rect()); }

void AppUi::save_export(const std::string& name, const std::string& bytes) {
    try {
        std::filesystem::create_directories(export_dir_);
        const std::string path = (std::filesystem::path(export_dir_) / name).string();
        io::write_file_atomic(path, bytes);
        message(std::string(views::tr("wrote ")) + path);
    } catch (const std::exception& e) {
        message(core::error_line(e), true);
    }
}

void AppUi::save_export_png(const std::string& name, std::array<int, 4> crop) {
    std::error_code ec;
    std::filesystem::create_directories(export_dir_, ec);
    capture_ = CaptureRequest{(std::filesystem::path(export_dir_) / name).string(), crop};
}

void AppUi::captured(const std::string& path, const std::string& error) {
    if (error.empty())
        message(std::string(views::tr("wrote ")) + path);
    else
        message(error, true);
}

}  // namespace normlab::app
