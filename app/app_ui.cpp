#include "app_ui.hpp"

#include "cube_view.hpp"
#include "exporter.hpp"
#include "i18n.hpp"
#include "language_menu.hpp"
#include "wrapped_text.hpp"
#include "sync_view.hpp"

#include "normlab/error.hpp"
#include "normlab/state_edits.hpp"
#include "normlab/vulkan_backend.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

namespace normlab::app {
namespace {

ImGuiStyle make_presenter_style(const ImGuiStyle& base) {
    ImGuiStyle s = base;
    s.ScaleAllSizes(1.6f);
    s.WindowRounding = 0;
    s.FrameBorderSize = 1.5f;
    s.WindowBorderSize = 2.0f;
    ImVec4* c = s.Colors;
    c[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
    c[ImGuiCol_TextDisabled] = ImVec4(0.86f, 0.86f, 0.80f, 1);
    c[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
    c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 1);
    c[ImGuiCol_PopupBg] = ImVec4(0.06f, 0.06f, 0.06f, 1);
    c[ImGuiCol_Border] = ImVec4(0.75f, 0.75f, 0.75f, 1);
    c[ImGuiCol_TitleBg] = ImVec4(0.12f, 0.12f, 0.16f, 1);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.12f, 0.12f, 0.16f, 1);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.10f, 0.10f, 0.12f, 1);
    c[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.16f, 0.20f, 1);
    c[ImGuiCol_Button] = ImVec4(0.18f, 0.22f, 0.32f, 1);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.26f, 0.34f, 0.50f, 1);
    c[ImGuiCol_ButtonActive] = ImVec4(0.0f, 0.45f, 0.70f, 1);  // Okabe–Ito blue
    c[ImGuiCol_CheckMark] = ImVec4(0.94f, 0.89f, 0.26f, 1);    // Okabe–Ito yellow
    c[ImGuiCol_Separator] = ImVec4(0.7f, 0.7f, 0.7f, 1);
    return s;
}

}  // namespace

AppUi::AppUi(const Window& window, Session& session, std::string export_dir)
    : window_(window),
      session_(session),
      export_dir_(std::move(export_dir)),
      heatmap_(window.context(), window.render_pass()),
      view_images_(window.context(), window.render_pass()),
      compare_(session, [this] { return view_images_.make(); }),
      pair_(session, [this] { return view_images_.make(); }),
      noise_([&ctx = window.context()] { return std::make_unique<VulkanBackend>(ctx); }),
      gradient_(session, view_images_.make()) {
    normal_style_ = ImGui::GetStyle();
    presenter_style_ = make_presenter_style(normal_style_);
    actions_ = make_actions();
}

void AppUi::message(std::string text, bool error) {
    msg_ = std::move(text);
    msg_error_ = error;
    msg_time_ = std::chrono::steady_clock::now();
    if (error) std::fprintf(stderr, "warning: %s\n", msg_.c_str());
}

void AppUi::set_presenter(bool on) {
    presenter_ = on;
    ImGui::GetStyle() = on ? presenter_style_ : normal_style_;
    ImGui::GetIO().FontDefault = on ? window_.fonts().large : window_.fonts().normal;
}

void AppUi::set_language(Language lang) {
    if (!app::set_language(lang)) message(cjk_missing_message(), true);
}

ViewSettings AppUi::view() const { return views_.view(heatmap_, experiment_); }

void AppUi::apply_view(const ViewSettings& v) { views_.show(v, heatmap_); }

void AppUi::edit(const State& next) {
    if (auto err = session_.apply(next, TensorChange::keep())) message(*err, true);
}

void AppUi::set_method(Method m) {
    if (auto err = app::set_method(session_, m)) message(*err, true);
}

void AppUi::menu_bar() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu(tr_id("File", "file").c_str())) {
        menu_items(actions_, kFileMenu);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr_id("View", "view").c_str())) {
        menu_items(actions_, kViewMenu);
        ImGui::Separator();
        ImGui::TextDisabled("%s", tr("Value colormap"));
        for (int i = 0; i < 3; ++i)
            if (ImGui::MenuItem(tr(kColormapNames[i]), nullptr, static_cast<int>(heatmap_.colormap) == i))
                heatmap_.colormap = static_cast<Colormap>(i);
        ImGui::TextDisabled("%s", tr("Group colors"));
        for (int i = 0; i < 2; ++i)
            if (ImGui::MenuItem(tr(kGroupPaletteNames[i]), nullptr, static_cast<int>(current_group_palette()) == i))
                set_group_palette(static_cast<GroupPalette>(i));
        ImGui::EndMenu();
    }
    if (auto lang = language_menu()) set_language(*lang);
    if (auto go = lessons_.menu()) go_to_step(go->first, go->second);
    if (ImGui::BeginMenu(tr_id("Experiments", "experiments").c_str())) {
        for (const auto& e : experiments())
            if (ImGui::MenuItem((tr(e.title) + "##" + e.id).c_str(), nullptr, experiment_ == &e))
                start_experiment(e.id);
        if (experiment_ && ImGui::MenuItem(tr("Close the experiment"), "Esc")) stop_experiment();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr_id("Help", "help").c_str())) {
        menu_items(actions_, kHelpMenu);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void AppUi::draw(const std::vector<KeyPress>& keys) {
    shortcuts(keys);
    if (pair_experiment()) {
        if (auto err = pair_.follow(session_)) message(*err, true);
    }
    // Presenter text: 34 px (times the UI scale) on 1080 lines and more, 26 px from 650 lines,
    // the normal size below (a window too small for larger text).
    const FontSet& f = window_.fonts();
    const float lines = ImGui::GetIO().DisplaySize.y / window_.ui_scale();
    ImGui::PushFont(!presenter_ ? f.normal : lines >= 1000 ? f.large : lines >= 650 ? f.medium : f.normal);
    menu_bar();
    const float top = ImGui::GetFrameHeight();
    layout(top);
    scene_popups();
    if (torch_open_) torch_window(torch_code_, torch_open_);
    if (exercise_open_)
        if (auto err =
                exercise_window(session_, exercise_open_,
                                "Then save the scene (Ctrl+S) or copy it as one line (Ctrl+Shift+C) for the class."))
            message(*err, true);
    help_overlay(actions_, help_);
    ImGui::PopFont();
    blank_screen(blank_);
}

std::string AppUi::state_json(int frame) const {
    const bool in_lesson = lessons_.active();
    std::string lesson =
        in_lesson ? lessons_.lessons()[static_cast<std::size_t>(lessons_.lesson_index())].id : std::string();
    nlohmann::json j = {{"method", method_info(session_.state().spec.method).name},
                        {"groups", session_.state().spec.groups},
                        {"mode", mode_name(session_.state().spec.mode)},
                        {"lesson", lesson},
                        {"step", in_lesson ? lessons_.step() + 1 : 0},
                        {"language", language() == Language::Zh ? "zh" : "en"},
                        {"presenter", presenter_},
                        {"compare", views_.compare},
                        {"cube", views_.cube},
                        {"help", help_},
                        {"blank", blank_},
                        {"text_field", ImGui::GetIO().WantTextInput},
                        {"eps", session_.state().spec.effective_eps()},
                        {"hide", session_.state().exercise.hidden_names()},
                        {"lock", session_.state().exercise.locked_names()},
                        {"frame", frame}};
    return j.dump();
}

// The gradient view replaces the heatmap and histograms unless the compare or pair view is up.
bool AppUi::gradient_view_shown() const { return views_.gradient && !views_.compare && !pair_experiment(); }

// The backward formula with the selected element's numbers, under the forward's.
void AppUi::explain_gradient() {
    if (!gradient_view_shown()) return;
    const std::string text = gradient_.explain(session_);
    if (text.empty()) return;
    ImGui::Separator();
    wrapped_text(text);
}

void AppUi::before_pass(vk::CommandBuffer cmd, vk::Extent2D extent) {
    heatmap_.before_pass(cmd, extent);
    view_images_.before_pass(cmd, extent);  // the compare, pair and gradient views' fills
}

}  // namespace normlab::app
