// WebApp's report (#normlab-app-report, page_bridge.hpp): what the app shows and where, as JSON,
// sent after the first frame and whenever it changes; the browser tests read it.
#include "web_app.hpp"

#include "normlab/views/train_report.hpp"

#include "normlab/views/fonts.hpp"
#include "normlab/views/i18n.hpp"
#include "page_bridge.hpp"

#include "normlab/session/state_edits.hpp"

#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>  // the open menus' windows
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace normlab::web {
namespace {

// clang-format off
EM_JS(void, js_set_document_language, (const char* lang), { document.documentElement.lang = UTF8ToString(lang); });
// clang-format on

// The SyncBN view as drawn: its devices, the applied mode, the largest naive error (sync σ² − naive σ²)
// over the channels and the height the view needs; null when it is not shown.
nlohmann::json sync_report(const session::Session& s, bool shown, const views::SyncArea& area) {
    const core::NormResult& r = s.result();
    if (!shown || !r.sync) return nullptr;
    double naive_error = 0;
    for (std::size_t c = 0; c < r.sync->sync_var.size(); ++c)
        naive_error = std::max(naive_error, r.sync->sync_var[c] - r.sync->naive_var[c]);
    return {{"devices", r.sync->devices},
            {"mode", core::sync_mode_name(r.sync->mode)},
            {"naive_error", naive_error},
            {"need", area.need}};
}

// A rectangle (x, y, w, h) from canvas to CSS pixels.
nlohmann::json css_rect(float x, float y, float w, float h, float css) { return {x / css, y / css, w / css, h / css}; }

// The menus and other popups open this frame (CSS pixels), outermost first: the tests tap their rows.
nlohmann::json popup_rects(float css) {
    nlohmann::json out = nlohmann::json::array();
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if ((w->Flags & ImGuiWindowFlags_Popup) && w->Active && !(w->Flags & ImGuiWindowFlags_Tooltip))
            out.push_back(css_rect(w->Pos.x, w->Pos.y, w->Size.x, w->Size.y, css));
    return out;
}

// How far the status bar's line reaches past its window's right edge (CSS pixels; 0: it fits).
float status_overflow(float css) {
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if (w->Active && std::string_view(w->Name) == "##status")
            return std::max(0.0f, w->ContentSize.x - (w->Size.x - 2 * w->WindowPadding.x)) / css;
    return 0;
}

// The titles of the panels shown (their visible part, before "##"), e.g. "Histograms (CPU)".
nlohmann::json panel_titles() {
    nlohmann::json out = nlohmann::json::array();
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->Active ||
            (w->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_ChildWindow)))
            continue;
        const std::string_view name(w->Name);
        const std::string_view title = name.substr(0, name.find("##"));
        if (!title.empty()) out.push_back(std::string(title));
    }
    return out;
}

}  // namespace

// What the app shows: the state, the panels and windows open, the messages.
nlohmann::json WebApp::state_report() const {
    const session::Session& s = page_.session();
    nlohmann::json help_keys = nlohmann::json::array();  // the F1 overlay's key column
    for (const views::Action& a : shell_.actions())
        if (a.help_keys) help_keys.push_back(a.help_keys);
    const auto sel = s.selected_stat();
    const bool zh = views::language() == core::Language::Zh;
    return {
        {"device", s.backend().device_name()},
        {"method", core::method_torch_name(s.state().spec.method, s.x().shape)},
        {"groups", s.state().spec.groups},
        {"shape", s.layout().shape.dims()},
        {"stat_count", s.layout().stat_count},
        {"max_error", s.max_error()},
        {"error", error_},
        {"note", note_},
        {"link", shown_link_},
        {"refused", shell_.controls().error()},
        {"language", zh ? "zh" : "en"},
        {"presenter", shell_.presenter()},
        {"cube", shell_.views().cube},
        {"compare", shell_.views().compare},
        {"cjk_font", views::cjk_font()},
        {"font_fetching", font_fetching_},
        {"missing_glyphs", missing_},
        {"heatmap_mode", static_cast<int>(shell_.heatmap().mode)},
        {"heatmap_zoom", shell_.heatmap().zoom().zoom()},
        {"heatmap_pan", {shell_.heatmap().zoom().offset_x(), shell_.heatmap().zoom().offset_y()}},  // canvas pixels
        {"selected_stat", sel ? *sel : -1},
        {"lesson", shell_.lessons().active() ? shell_.lessons().lesson()->id : std::string()},
        {"step", shell_.lessons().active() ? shell_.lessons().step() + 1 : 0},
        {"lesson_count", shell_.lessons().count()},
        {"lesson_error", shell_.lessons().error()},
        {"lesson_text", shell_.lessons().step_text(s.x(), s.result(), shell_.lesson_runs(), shell_.lesson_sweep())},
        {"experiment", shell_.experiment() ? shell_.experiment()->id : std::string()},
        {"batches_tracked", s.state().params.num_batches_tracked},
        {"eval", s.state().spec.mode == core::Mode::Eval},
        {"pair", shell_.pair_experiment()},
        {"gradient", shell_.views().gradient},
        {"gradient_nonzero", shell_.gradient_shown() ? shell_.gradient().nonzero() : -1},
        {"hide", s.state().exercise.hidden_names()},
        {"lock", s.state().exercise.locked_names()},
        {"exercise_open", shell_.exercise_open()},
        {"help", shell_.help()},
        {"help_keys", help_keys},
        {"blank", shell_.blank()},
        {"torch_open", shell_.torch_open()},
        {"torch_lines", std::count(shell_.torch_code().begin(), shell_.torch_code().end(), '\n')},
        {"pictures", shell_.pictures_shown() ? shell_.pictures().count() : 0},
        {"style", std::filesystem::path(s.state().style_image).filename().string()},
        {"sync", sync_report(s, shell_.sync_view_shown(), shell_.sync_area())},
        {"noise_rows", shell_.noise().rows().size()},
        {"noise_error", shell_.noise().error()},
        {"noise_button", shell_.noise().button_at()},
        {"heatmap_view", shell_.view().heatmap},
        {"panel_titles", panel_titles()},
    };
}

// Where things are drawn (canvas pixels), the images' uploads and fills, the startup times, and
// where a few elements' cells start with their statistic: the tests click them.
nlohmann::json WebApp::layout_report() const {
    const session::Session& s = page_.session();
    const views::TileLayout& t = shell_.heatmap().layout();
    const float px = shell_.heatmap().pixel_scale();
    int view_fills = 0;
    for (std::size_t i = 1; i < images_.size(); ++i) view_fills += images_[i]->fills();
    const std::array<float, 4> heat{shell_.heatmap().origin_x(), shell_.heatmap().origin_y(), t.width / px,
                                    t.height / px};  // canvas pixels
    const float css = static_cast<float>(window_.css_scale());
    static constexpr const char* kForms[] = {"wide", "tablet", "phone"};
    const std::array<float, 4> next = shell_.lessons().next_button();
    nlohmann::json j = {
        {"figure_rect", shell_.figure_rect()},
        {"menus",
         {{"file", shell_.menu_x()[0]},
          {"language", shell_.menu_x()[1]},
          {"lessons", shell_.menu_x()[2]},
          {"experiments", shell_.menu_x()[3]},
          {"view", shell_.menu_x()[4]}}},
        {"texture_uploads", images_.front()->uploads()},
        {"fills", images_.front()->fills()},
        {"view_fills", view_fills},
        {"image", {{"width", t.width}, {"height", t.height}}},
        {"heatmap_rect_px", heat},
        {"heatmap_rect", {heat[0] / css, heat[1] / css, heat[2] / css, heat[3] / css}},  // CSS pixels
        {"form", kForms[static_cast<int>(shell_.form())]},
        {"phone_tab", static_cast<int>(shell_.phone_tab())},
        {"train", views::train_report(shell_.train_runs(), shell_.train_shown())},
        {"inspect_buttons", shell_.train_view().inspect_buttons()},  // canvas pixels (ImGui's)
        {"sweep",
         {{"state", static_cast<int>(shell_.train_sweep().state())},  // 0 empty, 1 running, 2 done
          {"finished", shell_.train_sweep().finished()},
          {"total", shell_.train_sweep().total()},
          {"error", shell_.train_sweep().error()},
          {"spots", shell_.train_view().sweep_spots()}}},  // the Sweep tab, the batch sizes, Start (canvas pixels)
        {"menus_folded", shell_.menus_folded()},
        {"menu_bar_h", shell_.menu_bar_height()},
        {"menu_row_h", shell_.menu_row_height() / css},  // CSS pixels
        {"css_scale", css},
        {"lesson_next", css_rect(next[0], next[1], next[2], next[3], css)},
        {"popups", popup_rects(css)},
        {"cell", shell_.heatmap().cell_on_screen()},     // through the zoom
        {"heatmap_fill", shell_.heatmap().fill_size()},  // the fill's pixels (the zoom's window)
        {"status_overflow", status_overflow(css)},
        {"canvas", {window_.width(), window_.height()}},
        {"ui_scale", window_.ui_scale()},
        {"raster_scale", window_.raster_scale()},
        {"font_atlas", {ImGui::GetIO().Fonts->TexWidth, ImGui::GetIO().Fonts->TexHeight}},
        {"first_frame_ms", startup_.back().second},
        {"startup_ms", startup_},
    };
    nlohmann::json probes = nlohmann::json::array();
    const core::Shape4& sh = s.x().shape;
    const auto probe = [&](const core::Index4& e) {
        const std::int64_t i = s.x().offset(e[0], e[1], e[2], e[3]);
        return nlohmann::json{
            {"index", i}, {"stat", s.layout().stat_of(i)}, {"at", shell_.heatmap().element_on_screen(e)}};
    };
    for (std::int64_t i : {std::int64_t{0}, sh.numel() / 2, sh.numel() - 1}) {
        const auto e = core::unravel(sh, i);
        probes.push_back(probe({e[0], e[1], e[2], e[3]}));
    }
    j["probes"] = probes;
    // The element nearest the middle of the heatmap's place (zoomed: the one in view there).
    const auto mid = shell_.heatmap().element_near_middle();
    j["middle_probe"] = mid ? probe(*mid) : nlohmann::json();
    return j;
}

void WebApp::report() {
    if (last_report_.empty()) startup_.emplace_back("first_frame", emscripten_get_now());
    const bool zh = views::language() == core::Language::Zh;
    // The atlas is made again when the scale changes and when the CJK font comes (without it, English
    // draws no Chinese glyph: none missing).
    if (glyphs_scale_ != window_.ui_scale()) {
        glyphs_scale_ = window_.ui_scale();
        missing_ =
            views::cjk_font() ? views::missing_glyphs(window_.fonts().normal, views::all_chinese_text().c_str()) : "";
    }
    nlohmann::json j = state_report();
    j.update(layout_report());
    std::string text = j.dump();
    if (text == last_report_) return;
    js_set_document_language(zh ? "zh-Hans" : "en");
    show_report(text);
    if (last_report_.empty()) mark_done("done");
    last_report_ = std::move(text);
}

}  // namespace normlab::web
