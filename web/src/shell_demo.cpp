#include "shell_demo.hpp"

#include "colormap.hpp"
#include "heatmap_fill.hpp"
#include "i18n.hpp"
#include "page_bridge.hpp"

#include "normlab/error.hpp"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace normlab::web {
namespace {

// The heatmap image's size budget: the largest square cells that fit (TileLayout::fit); the image
// is then scaled to the window, sampled nearest.
constexpr float kImageWidth = 960, kImageHeight = 600;

std::vector<float> rgba_of(const std::vector<app::Rgb>& colors) {
    std::vector<float> v;
    for (const app::Rgb& c : colors) v.insert(v.end(), {c[0], c[1], c[2], 1.0f});
    return v;
}

// clang-format off
EM_JS(void, js_set_document_language, (const char* lang), { document.documentElement.lang = UTF8ToString(lang); });
// clang-format on

}  // namespace

ShellDemo::ShellDemo(WebWindow& window, webgpu::WgpuBackend& backend, const std::string& scene_text)
    : window_(window), page_(backend), fill_(backend.context()) {
    if (!scene_text.empty() && open_scene(scene_text)) return;
    open("");  // no scene, or one that cannot be shown: the default State, with the error line
}

bool ShellDemo::open_scene(const std::string& text) {
    try {
        open(text);
        error_.clear();
        return true;
    } catch (const std::exception& e) {  // one line in the status line; what is shown stays
        error_ = e.what();
        return false;
    }
}

// Opens the scene (the Session replaces its state) and fills its heatmap in statistics mode (each
// statistic its palette colour) from the Session's device x and y; a refused scene changes nothing.
void ShellDemo::open(const std::string& text) {
    page_.open_scene(text, "the scene in the URL");
    const StatLayout& l = session().layout();
    const app::TileLayout tiles = app::TileLayout::fit(l.shape, kImageWidth, kImageHeight);
    std::vector<app::Rgb> palette;
    for (std::int64_t s = 0; s < l.stat_count; ++s) palette.push_back(app::stat_color(s, l.stat_count));
    const std::vector<app::Rgb> lut = app::colormap_lut(app::Colormap::Viridis);
    const app::FillPush push =
        app::fill_push(tiles, app::HeatmapMode::Statistics, -2.0f, 2.0f, l, -1, static_cast<std::uint32_t>(lut.size()));
    pixels_ = fill_.fill(webgpu::wgpu_buffer(session().x_device()), webgpu::wgpu_buffer(session().y_device()),
                         rgba_of(palette), rgba_of(lut), &push, sizeof push);
    method_ = method_torch_name(session().state().spec.method, l.shape);
    tiles_ = tiles;
}

void ShellDemo::menu_bar() {
    if (!ImGui::BeginMainMenuBar()) return;
    // The desktop's Language menu (app/app_ui.cpp) and its key, L.
    if (ImGui::BeginMenu(app::tr_id("Language", "lang").c_str())) {
        if (ImGui::MenuItem("English", "L", app::language() == Language::En)) app::set_language(Language::En);
        if (!app::cjk_font()) ImGui::BeginDisabled();
        if (ImGui::MenuItem("中文 (简体)", "L", app::language() == Language::Zh)) app::set_language(Language::Zh);
        if (!app::cjk_font()) {
            ImGui::EndDisabled();
            ImGui::TextDisabled("%s", app::cjk_missing_message().c_str());
        }
        ImGui::EndMenu();
    }
    for (const app::KeyPress& k : window_.take_key_presses())
        if (k.key == GLFW_KEY_L && k.mods == 0 && !ImGui::GetIO().WantTextInput)
            app::set_language(app::language() == Language::En ? Language::Zh : Language::En);
    ImGui::EndMainMenuBar();
}

// The heatmap scaled to the space left (aspect kept), a caption above it and the status line below.
void ShellDemo::heatmap_window() {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##normlab-shell", nullptr, flags);
    const StatLayout& l = session().layout();
    ImGui::Text("%s  ·  %s  ·  %s", app::tr("Heatmap"), method_.c_str(), l.shape.str().c_str());
    const char* caption = l.method == Method::Rms
                              ? "%lld statistics of %lld elements, each scaled by its own root mean square."
                              : "%lld statistics of %lld elements, each normalized with its own μ, σ².";
    ImGui::TextWrapped(app::tr(caption), static_cast<long long>(l.stat_count), static_cast<long long>(l.count()));
    const float status_h = ImGui::GetFrameHeightWithSpacing() * (error_.empty() ? 1.0f : 2.0f);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float scale = std::max(0.0f, std::min(avail.x / static_cast<float>(tiles_.width),
                                                (avail.y - status_h) / static_cast<float>(tiles_.height)));
    const ImVec2 size(static_cast<float>(tiles_.width) * scale, static_cast<float>(tiles_.height) * scale);
    texture_.set(tiles_.width, tiles_.height, pixels_);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Image(texture_.id(), size);
    image_rect_ = {at.x, at.y, size.x, size.y};
    ImGui::SetCursorPosY(ImGui::GetWindowHeight() - status_h);
    ImGui::Separator();
    if (!error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", error_.c_str());
    ImGui::Text("%s  |  max |y − float64 reference| = %.3g  |  %.0f fps", session().backend().device_name().c_str(),
                session().max_error(), static_cast<double>(ImGui::GetIO().Framerate));
    ImGui::End();
}

void ShellDemo::draw() {
    menu_bar();
    heatmap_window();
    report();
}

// The page's report: sent after the first frame and whenever it changes.
void ShellDemo::report() {
    if (last_report_.empty()) startup_.emplace_back("first_frame", emscripten_get_now());
    const bool zh = app::language() == Language::Zh;
    if (glyphs_scale_ != window_.ui_scale()) {  // the atlas is made again when the scale changes
        glyphs_scale_ = window_.ui_scale();
        missing_ = app::missing_glyphs(window_.fonts().normal, app::all_chinese_text().c_str());
    }
    nlohmann::json j = {
        {"device", session().backend().device_name()},
        {"method", method_},
        {"shape", session().layout().shape.dims()},
        {"stat_count", session().layout().stat_count},
        {"max_error", session().max_error()},
        {"error", error_},
        {"language", zh ? "zh" : "en"},
        {"cjk_font", app::cjk_font()},
        {"missing_glyphs", missing_},
        {"texture_uploads", texture_.uploads()},
        {"image", {{"width", tiles_.width}, {"height", tiles_.height}}},
        {"heatmap_rect", image_rect_},
        {"canvas", {window_.width(), window_.height()}},
        {"ui_scale", window_.ui_scale()},
        {"raster_scale", window_.raster_scale()},
        {"font_atlas", {ImGui::GetIO().Fonts->TexWidth, ImGui::GetIO().Fonts->TexHeight}},
        {"first_frame_ms", startup_.back().second},
        {"startup_ms", startup_},
    };
    std::string text = j.dump();
    if (text == last_report_) return;
    js_set_document_language(zh ? "zh-Hans" : "en");
    show_report(text);
    if (last_report_.empty()) mark_done("done");
    last_report_ = std::move(text);
}

}  // namespace normlab::web
