#include "web_app.hpp"

#include "i18n.hpp"
#include "language_menu.hpp"
#include "page_bridge.hpp"
#include "panel_windows.hpp"

#include "normlab/error.hpp"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

namespace normlab::web {
namespace {

// clang-format off
EM_JS(void, js_set_document_language, (const char* lang), { document.documentElement.lang = UTF8ToString(lang); });
// clang-format on

}  // namespace

WebApp::WebApp(WebWindow& window, webgpu::WgpuBackend& backend, const std::string& scene_text)
    : window_(window),
      page_(backend),
      image_(new WebHeatmapImage(backend.context())),
      heatmap_(std::unique_ptr<app::HeatmapImage>(image_)) {
    if (!scene_text.empty() && open_scene(scene_text)) return;
    page_.open_scene("", "the default state");  // no scene, or one that cannot be shown: the error stays
}

bool WebApp::open_scene(const std::string& text) {
    try {
        page_.open_scene(text, "the scene in the URL");
        error_.clear();
        return true;
    } catch (const std::exception& e) {  // one line in the status bar; what is shown stays
        error_ = e.what();
        return false;
    }
}

void WebApp::set_presenter(bool on) {
    presenter_ = on;
    ImGui::GetIO().FontDefault = on ? window_.fonts().large : window_.fonts().normal;
}

// The desktop's keys for what the browser has: L (language), F5 or P (presenter mode).
void WebApp::keys() {
    for (const app::KeyPress& k : window_.take_key_presses()) {
        if (k.mods != 0 || ImGui::GetIO().WantTextInput) continue;
        if (k.key == GLFW_KEY_L) app::set_language(app::language() == Language::En ? Language::Zh : Language::En);
        if (k.key == GLFW_KEY_F5 || k.key == GLFW_KEY_P) set_presenter(!presenter_);
    }
}

void WebApp::menu_bar() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (auto lang = app::language_menu()) app::set_language(*lang);  // the desktop's menu (key L)
    if (ImGui::BeginMenu(app::tr_id("View", "view").c_str())) {
        if (ImGui::MenuItem(app::tr("Presenter mode"), "F5 / P", presenter_)) set_presenter(!presenter_);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

// The panels at the desktop layout's rectangles (panel_layout.hpp), as AppUi::layout places them.
void WebApp::panels(float top) {
    app::LayoutContent c;
    c.shape = session().x().shape;
    c.heat_chrome = heat_chrome_;
    const app::LayoutMetrics m = app::measure_layout(top);
    const app::PanelRects r = presenter_ ? app::presenter_layout(m, c) : app::normal_layout(m, c);
    if (r.controls) {
        app::begin_panel(app::tr_id("Tensor & method", "controls"), *r.controls);
        controls_.draw(session());
        ImGui::End();
    }
    app::begin_panel(std::string(app::tr("Heatmap")) + ": " +
                         method_torch_name(session().state().spec.method, session().x().shape) + "###heatmap",
                     r.heatmap);
    heatmap_.show_controls = !presenter_;
    heatmap_.center = presenter_;
    heatmap_.draw(session());
    ImGui::End();
    if (r.measure_heat_chrome) heat_chrome_ = r.heatmap.h - heatmap_.image_room_h();
    if (r.histograms) {
        app::begin_panel(app::tr_id("Histograms (GPU)", "histograms"), *r.histograms);
        if (auto bins = histograms_.draw(session().histograms(), session().bins(), presenter_))
            session().set_bins(*bins);
        ImGui::End();
    }
    app::begin_panel(app::tr_id("Explain", "explain"), r.explain);
    explain_.draw(session());
    ImGui::End();
    if (r.stats) {
        app::begin_panel(app::tr_id("Statistics", "stats"), *r.stats);
        table_.draw(session());
        ImGui::End();
    }
    status_bar(r.status);
}

void WebApp::status_bar(const app::Rect& r) {
    app::begin_panel("##status", r, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    const std::string refused = controls_.error();
    if (!error_.empty() || !refused.empty()) {
        ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "%s", !error_.empty() ? error_.c_str() : refused.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    // WebGPU gives no GPU time here (no timestamp queries): the recompute's wall time only.
    ImGui::Text("%s  |  last recompute %.1f ms  |  max |y − float64 reference| = %.2e  |  %.0f fps",
                session().backend().device_name().c_str(), session().recompute_ms(), session().max_error(),
                static_cast<double>(ImGui::GetIO().Framerate));
    ImGui::End();
}

void WebApp::draw() {
    keys();
    menu_bar();
    panels(ImGui::GetFrameHeight());
    report();
}

// The page's report: sent after the first frame and whenever it changes.
void WebApp::report() {
    if (last_report_.empty()) startup_.emplace_back("first_frame", emscripten_get_now());
    const bool zh = app::language() == Language::Zh;
    if (glyphs_scale_ != window_.ui_scale()) {  // the atlas is made again when the scale changes
        glyphs_scale_ = window_.ui_scale();
        missing_ = app::missing_glyphs(window_.fonts().normal, app::all_chinese_text().c_str());
    }
    const Session& s = page_.session();
    const app::TileLayout& t = heatmap_.layout();
    const float px = heatmap_.pixel_scale();
    const auto sel = s.selected_stat();
    nlohmann::json j = {
        {"device", s.backend().device_name()},
        {"method", method_torch_name(s.state().spec.method, s.x().shape)},
        {"shape", s.layout().shape.dims()},
        {"stat_count", s.layout().stat_count},
        {"max_error", s.max_error()},
        {"error", error_},
        {"refused", controls_.error()},
        {"language", zh ? "zh" : "en"},
        {"presenter", presenter_},
        {"cjk_font", app::cjk_font()},
        {"missing_glyphs", missing_},
        {"heatmap_mode", static_cast<int>(heatmap_.mode)},
        {"selected_stat", sel ? *sel : -1},
        {"texture_uploads", image_->uploads()},
        {"fills", image_->fills()},
        {"image", {{"width", t.width}, {"height", t.height}}},
        {"heatmap_rect", {heatmap_.origin_x(), heatmap_.origin_y(), t.width / px, t.height / px}},
        {"cell", t.cell / px},
        {"canvas", {window_.width(), window_.height()}},
        {"ui_scale", window_.ui_scale()},
        {"raster_scale", window_.raster_scale()},
        {"font_atlas", {ImGui::GetIO().Fonts->TexWidth, ImGui::GetIO().Fonts->TexHeight}},
        {"first_frame_ms", startup_.back().second},
        {"startup_ms", startup_},
    };
    // Where each element's cell starts (canvas pixels) and its statistic, for a few elements: the
    // tests click them.
    nlohmann::json probes = nlohmann::json::array();
    const Shape4& sh = s.x().shape;
    for (std::int64_t i : {std::int64_t{0}, sh.numel() / 2, sh.numel() - 1}) {
        const auto e = unravel(sh, i);
        const auto p = t.element_pos(e[0], e[1], e[2], e[3]);
        probes.push_back({{"index", i},
                          {"stat", s.layout().stat_of(i)},
                          {"at", {heatmap_.origin_x() + p[0] / px, heatmap_.origin_y() + p[1] / px}}});
    }
    j["probes"] = probes;
    std::string text = j.dump();
    if (text == last_report_) return;
    js_set_document_language(zh ? "zh-Hans" : "en");
    show_report(text);
    if (last_report_.empty()) mark_done("done");
    last_report_ = std::move(text);
}

}  // namespace normlab::web
