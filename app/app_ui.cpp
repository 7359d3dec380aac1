#include "app_ui.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/train_report.hpp"

#include "normlab/ops/train_runner.hpp"
#include "normlab/ops/vulkan_backend.hpp"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
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

AppUi::AppUi(const Window& window, session::Session& session, std::string export_dir)
    : window_(window),
      session_(session),
      export_dir_(std::move(export_dir)),
      images_(window.context(), window.render_pass()),
      shell_(*this, session) {
    normal_style_ = ImGui::GetStyle();
    presenter_style_ = make_presenter_style(normal_style_);
    shell_.set_file_actions(file_actions(shell_));
    // The Train view's runs train on this window's Vulkan device (engine/ops' TrainRunner).
    const gpu::VulkanContext& ctx = window.context();
    shell_.set_train_factory({[c = &ctx](train::TrainProgram p, int per_submit) -> std::unique_ptr<train::TrainDevice> {
                                  return std::make_unique<ops::TrainRunner>(*c, std::move(p), per_submit);
                              },
                              ctx.limits().maxPerStageDescriptorStorageBuffers});
}

std::unique_ptr<plan::ComputeBackend> AppUi::make_backend() {
    return std::make_unique<ops::VulkanBackend>(window_.context());
}

void AppUi::message(const std::string& text, bool error) {
    msg_ = text;
    msg_error_ = error;
    msg_time_ = std::chrono::steady_clock::now();
    shell_.pacer().wake_at(msg_time_ + message_shown(error));  // a frame without it when it goes
    if (error) std::fprintf(stderr, "warning: %s\n", msg_.c_str());
}

void AppUi::presenter_look(bool on) {
    ImGui::GetStyle() = on ? presenter_style_ : normal_style_;
    ImGui::GetIO().FontDefault = on ? window_.fonts().large : window_.fonts().normal;
}

void AppUi::draw(const std::vector<views::KeyPress>& keys) {
    // Presenter text: 34 px (times the UI scale) on 1080 lines and more, 26 px from 650 lines,
    // the normal size below (a window too small for larger text).
    const views::FontSet& f = window_.fonts();
    const float lines = ImGui::GetIO().DisplaySize.y / window_.ui_scale();
    ImGui::PushFont(!shell_.presenter() ? f.normal : lines >= 1000 ? f.large : lines >= 650 ? f.medium : f.normal);
    shell_.draw(keys);
    ImGui::PopFont();
}

std::string AppUi::state_json(int frame) const {
    const views::LessonPanel& lessons = shell_.lessons();
    const bool in_lesson = lessons.active();
    std::string lesson =
        in_lesson ? lessons.lessons()[static_cast<std::size_t>(lessons.lesson_index())].id : std::string();
    nlohmann::json j = {
        {"method", core::method_info(session_.state().spec.method).name},
        {"groups", session_.state().spec.groups},
        {"mode", core::mode_name(session_.state().spec.mode)},
        {"lesson", lesson},
        {"step", in_lesson ? lessons.step() + 1 : 0},
        {"language", views::language() == core::Language::Zh ? "zh" : "en"},
        {"presenter", shell_.presenter()},
        {"compare", shell_.views().compare},
        {"cube", shell_.views().cube},
        {"help", shell_.help()},
        {"blank", shell_.blank()},
        {"text_field", ImGui::GetIO().WantTextInput},
        {"eps", session_.state().spec.effective_eps()},
        {"hide", session_.state().exercise.hidden_names()},
        {"lock", session_.state().exercise.locked_names()},
        {"train", views::train_report(shell_.train_runs(), shell_.train_shown())},
        {"tensor_dims", session_.x().shape.dims()},
        {"tensor_file",
         session_.state().source.kind == core::TensorSource::Kind::File ? session_.state().source.path : std::string()},
        {"view", nlohmann::json::parse(classroom::view_to_json(shell_.view()))},  // as Save scene writes it
        {"frame", frame}};
    // The heatmap's zoom and place, the selection, and the element at the middle of the image's place
    // (its top-left corner and side on screen, through the zoom): the zoom test points the mouse there.
    const views::HeatmapPanel& h = shell_.heatmap();
    const float px = h.pixel_scale();
    const std::array<float, 4> rect{h.origin_x(), h.origin_y(), static_cast<float>(h.layout().width) / px,
                                    static_cast<float>(h.layout().height) / px};
    const auto sel = session_.selected_stat();
    j["heatmap_zoom"] = h.zoom().zoom();
    j["heatmap_rect"] = rect;
    j["selected_stat"] = sel ? *sel : -1;
    if (const auto mid = h.element_near_middle()) {
        const std::int64_t i = session_.x().offset((*mid)[0], (*mid)[1], (*mid)[2], (*mid)[3]);
        j["middle_probe"] = {{"index", i},
                             {"stat", session_.layout().stat_of(i)},
                             {"at", h.element_on_screen(*mid)},
                             {"cell", h.cell_on_screen()}};
    }
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (const auto e = h.element_under(mouse.x, mouse.y)) {
        const std::int64_t i = session_.x().offset((*e)[0], (*e)[1], (*e)[2], (*e)[3]);
        j["hover_probe"] = {{"index", i}, {"stat", session_.layout().stat_of(i)}};
    }
    j["heatmap_fit"] = h.fit_rect();
    return j.dump();
}

}  // namespace normlab::app
