// AppUi's windows over the layout: save/load scene, the exercise editor, the PyTorch code;
// the one-line scene on the clipboard; the exports.
#include "app_ui.hpp"

#include "cube_view.hpp"
#include "exporter.hpp"
#include "i18n.hpp"
#include "sync_view.hpp"
#include "wrapped_text.hpp"

#include "normlab/error.hpp"
#include "normlab/state_edits.hpp"

#include <algorithm>
#include <cmath>
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
        ImGui::TextUnformatted(which == 0 ? tr("Save the whole state as a scene file:") : tr("Load a scene file:"));
        std::snprintf(buf, sizeof buf, "%s", scene_path_.c_str());
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter = ImGui::InputText("##path", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
        scene_path_ = buf;
        if (ImGui::Button(which == 0 ? tr("Save") : tr("Load")) || enter) {
            try {
                if (which == 0) {
                    State st = session_.state();
                    st.view_json = view_to_json(view());
                    save_scene(st, scene_path_);
                    message(std::string(tr("saved ")) + scene_path_);
                } else {
                    open_scene(load_scene(scene_path_), scene_path_);
                    message(std::string(tr("loaded ")) + scene_path_);
                }
            } catch (const InputError& e) {
                message(e.what(), true);
            }
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

// A scene loaded or pasted: its state (with its exercise) and its view, or nothing at all.
void AppUi::open_scene(const State& st, const std::string& name) {
    ViewSettings v = parse_view(st.view_json, name);
    if (auto err = session_.replace(st, TensorChange::from_source())) throw InputError(*err);
    experiment_ = nullptr;
    apply_view(v);
}

// The whole state and view as one line of text on the clipboard (scene_to_line).
void AppUi::copy_scene() {
    State st = session_.state();
    st.view_json = view_to_json(view());
    ImGui::SetClipboardText(scene_to_line(st).c_str());
    message(tr("scene copied to the clipboard as one line"));
}

void AppUi::paste_scene() {
    const char* text = ImGui::GetClipboardText();
    try {
        open_scene(scene_from_line(text ? text : "", "pasted scene"), "pasted scene");
        message(tr("scene pasted from the clipboard"));
    } catch (const InputError& e) {
        message(e.what(), true);
    }
}

// The teacher's side of an exercise: which controls the scene hides or locks. Each change
// is an edit of the exercise alone (no lock covers the exercise itself); save or copy the
// scene after.
void AppUi::exercise_window() {
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowSize(ImVec2(em * 26, em * 33), ImGuiCond_Appearing);
    bool open = true;
    if (!ImGui::Begin(tr_id("Exercise: hide and lock controls", "exercise").c_str(), &open)) {
        ImGui::End();
        if (!open) exercise_open_ = false;
        return;
    }
    wrapped_text(
        tr("Hidden controls are not drawn; locked ones are greyed out. Neither can be changed, "
           "by the panels or by the keys. Then save the scene (Ctrl+S) or copy it as one line "
           "(Ctrl+Shift+C) for the class."));
    Exercise ex = session_.state().exercise;
    if (ImGui::BeginTable("controls", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn(tr("control"));
        ImGui::TableSetupColumn(tr("hide"));
        ImGui::TableSetupColumn(tr("lock"));
        ImGui::TableHeadersRow();
        for (int i = 0; i < kControlCount; ++i) {
            const auto c = static_cast<Control>(i);
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(control_name(c));
            ImGui::TableNextColumn();
            bool h = ex.hides(c), l = (ex.locked >> i) & 1u;
            if (ImGui::Checkbox("##h", &h)) ex.hide(c, h);
            ImGui::TableNextColumn();
            if (!is_panel(c) && ImGui::Checkbox("##l", &l)) ex.lock(c, l);
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (ImGui::Button(tr("clear"))) ex = {};
    if (!(ex == session_.state().exercise)) edit(with_exercise(session_.state(), ex));
    ImGui::End();
    if (!open) exercise_open_ = false;
}

void AppUi::torch_window() {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(d.x * 0.5f, d.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(d.x * 0.55f, d.y * 0.5f), ImGuiCond_Appearing);
    ImGui::Begin(tr_id("PyTorch code (copied to the clipboard)", "torch").c_str(), &torch_open_,
                 ImGuiWindowFlags_NoSavedSettings);
    if (ImGui::Button(tr("Copy again"))) ImGui::SetClipboardText(torch_code_.c_str());
    ImGui::Separator();
    ImGui::TextUnformatted(torch_code_.c_str());
    ImGui::End();
}

void AppUi::export_files() {
    try {
        auto files = export_all(session_, export_dir_, export_stem(session_));
        message(std::string(tr("exported ")) + std::to_string(files.size()) + " " + tr("files to") + " " + export_dir_);
    } catch (const InputError& e) {
        message(e.what(), true);
    }
}

void AppUi::export_png() {
    std::error_code ec;
    std::filesystem::create_directories(export_dir_, ec);
    const auto& r = figure_rect_;
    capture_ = CaptureRequest{
        (std::filesystem::path(export_dir_) / (export_stem(session_) + "-figure.png")).string(),
        {static_cast<int>(r[0]), static_cast<int>(r[1]), static_cast<int>(r[2]), static_cast<int>(r[3])}};
}

void AppUi::captured(const std::string& path, const std::string& error) {
    if (error.empty())
        message(std::string(tr("wrote ")) + path);
    else
        message(error, true);
}

}  // namespace normlab::app
