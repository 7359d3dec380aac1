// WebApp: the browser's platform for the shell — opening files and scenes, downloads, the link and
// the clipboard, the File menu's rows, the status bar. Its report is in web_app_report.cpp.
#include "web_app.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/panel_windows.hpp"
#include "normlab/views/png_file.hpp"
#include "web_train.hpp"
#include "normlab/views/wrapped_text.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/io/file_kind.hpp"
#include "normlab/webgpu/wgpu_backend.hpp"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>

#include <filesystem>
#include <memory>

namespace normlab::web {
namespace {

// clang-format off
// app_page.js's file actions (window.normlabPage): the file picker, a download of a file the program
// wrote, the address bar's scene, the clipboard.
EM_JS(void, js_app_call, (const char* method, const char* a, const char* b), {
    var page = window.normlabPage;
    if (page && page[UTF8ToString(method)]) page[UTF8ToString(method)](UTF8ToString(a), UTF8ToString(b));
});
// clang-format on

}  // namespace

WebApp::WebApp(WebWindow& window, const PageBackend& backend, const std::string& query, const std::string& link,
               views::LessonPanel lessons)
    : window_(window),
      backend_(backend),
      page_(*backend.backend),
      shell_(*this, page_.edit_session(), std::move(lessons)) {
    shell_.set_file_actions(file_actions(shell_));
    shell_.set_train_factory(train_device_factory(backend_));               // the Train view's devices (web_train.hpp)
    shell_.controls().pick_file = [] { js_app_call("pickFile", "", ""); };  // the browser's file chooser
    shell_.controls().pick_style_file = [] { js_app_call("pickFile", "style", ""); };
    try {
        const session::AppLink l = session::parse_link(query, "the link in the URL", true)
                                       .merged(session::parse_link(link, "the link in the URL"));
        if (open(l, "the scene in the URL")) return;
    } catch (const std::exception& e) {
        error_ = core::error_line(e);
    }
    page_.open_scene("", "the default state");  // no link, or one that cannot be shown: the error stays
}

std::unique_ptr<views::HeatmapImage> WebApp::make_heatmap_image() {
    images_.push_back(new WebHeatmapImage(backend_.ctx.get()));
    return std::unique_ptr<views::HeatmapImage>(images_.back());
}

std::unique_ptr<plan::ComputeBackend> WebApp::make_backend() {
    if (!backend_.ctx) return make_cpu_backend(backend_.cpu_reason);
    return std::make_unique<webgpu::WgpuBackend>(*backend_.ctx);
}

// An error stays until the next successful action; a note until the next note or error.
void WebApp::message(const std::string& text, bool error) {
    if (error)
        error_ = text;
    else
        note_ = text;
}

void WebApp::presenter_look(bool on) {
    ImGui::GetIO().FontDefault = on ? window_.fonts().large : window_.fonts().normal;
}

bool WebApp::open_link(const std::string& text, const std::string& name) {
    try {
        return open(session::parse_link(text, name), name == "the link in the URL" ? "the scene in the URL" : name);
    } catch (const std::exception& e) {  // one line in the status bar; what is shown stays
        error_ = core::error_line(e);
        shown_link_ = "?";  // the address bar goes back to the shown state's link
        return false;
    }
}

bool WebApp::open(const session::AppLink& link, const std::string& scene_name) {
    bool ok = true;
    shell_.open_link(link, [&](const std::string& scene) -> std::optional<classroom::ViewSettings> {
        try {
            page_.open_scene(scene, scene_name);
            error_.clear();
            return page_.scene_view();
        } catch (const std::exception& e) {  // one line in the status bar; what is shown stays
            error_ = core::error_line(e);
            ok = false;
            return std::nullopt;
        }
    });
    if (!ok) shown_link_ = "?";
    return ok;
}

void WebApp::open_file(const std::string& path, const std::string& name) {
    opened(name, [&] {
        page_.open_file(path, name);
        if (io::file_kind(name) == io::FileKind::Scene)
            shell_.scene_shown(page_.scene_view());
        else
            shell_.stop_experiment();  // a file's tensor ends an experiment, as a scene does on the desktop
    });
}

void WebApp::open_style(const std::string& path, const std::string& name) {
    opened(name, [&] { page_.open_style(path, name); });
}

void WebApp::opened(const std::string& name, const std::function<void()>& open) {
    try {
        open();
        error_.clear();
        note_ = std::string(views::tr("opened ")) + name;
    } catch (const std::exception& e) {  // one line in the status bar; what is shown stays
        error_ = core::error_line(e);
        note_.clear();
    }
}

void WebApp::paste(const std::string& text, bool from_menu) {
    WebWindow::set_pasted_text(text);
    if (!from_menu && ImGui::GetIO().WantTextInput) return;  // Ctrl+V in a field: ImGui pastes it there
    if (open_link(text, "pasted scene")) note_ = views::tr("scene pasted from the clipboard");
}

void WebApp::download(const std::string& kind) {
    try {
        auto [file, bytes] = page_.download(kind, shell_.view());
        save_export(file, bytes);
    } catch (const std::exception& e) {
        error_ = core::error_line(e);
    }
}

void WebApp::save_export(const std::string& file, const std::string& bytes) {
    try {
        std::filesystem::create_directories("/downloads");
        io::write_file_atomic("/downloads/" + file, bytes);
        js_app_call("download", ("/downloads/" + file).c_str(), file.c_str());
        note_ = std::string(views::tr("saved ")) + file;
        error_.clear();
    } catch (const std::exception& e) {
        error_ = core::error_line(e);
    }
}

void WebApp::save_png(bool figure) {
    const std::string file = std::string("normlab-") + core::method_name(page_.session().state().spec.method) +
                             (figure ? "-figure.png" : "-screen.png");
    save_export_png(file, figure ? shell_.figure_rect() : std::array<int, 4>{});
}

void WebApp::save_export_png(const std::string& file, std::array<int, 4> crop) {
    window_.capture_next_frame([this, file, crop](views::RgbaImage full) {
        try {
            const views::RgbaImage shot = views::crop_image(full, crop);
            save_export(file, views::png_bytes(file, shot.width, shot.height, shot.rgba));
        } catch (const std::exception& e) {
            error_ = core::error_line(e);
        }
    });
}

std::string WebApp::link_now() const {
    const auto scene = page_.link(shell_.view());
    if (!scene) return "";
    session::AppLink link = shell_.link_parts();
    link.scene = *scene;
    return session::link_text(link);
}

// The link as one line on the clipboard, as the desktop's File > Copy scene (a file's tensor has none).
void WebApp::copy_scene() {
    const std::string line = link_now();
    error_.clear();
    if (line.empty()) {
        note_ = page_.why_no_link();
        return;
    }
    ImGui::SetClipboardText(line.c_str());  // the page's clipboard (web_window)
    note_ = views::tr("scene copied to the clipboard as one line");
}

// The note says the link is on the clipboard only while it is the link of what is shown (keep_link).
void WebApp::copy_link() {
    const std::string line = link_now();
    error_.clear();
    if (line.empty()) {
        note_ = page_.why_no_link();
        return;
    }
    js_app_call("copyLink", line.c_str(), "");
    note_ = views::tr("the link to this scene is in the address bar and on the clipboard");
    copied_link_ = line;
}

void WebApp::keep_link() {
    // The link changes only with the Session's generation (every apply), its selection, the view or
    // the shell's parts (lesson step, language, presenter mode).
    const session::Session& now_shown = page_.session();
    const classroom::ViewSettings v = shell_.view();
    const session::AppLink parts = shell_.link_parts();
    if (shown_link_ != "?" && link_generation_ == now_shown.generation() &&
        link_selection_ == now_shown.state().selection && link_view_ == v && link_parts_ == parts)
        return;
    link_generation_ = now_shown.generation();
    link_selection_ = now_shown.state().selection;
    link_view_ = v;
    link_parts_ = parts;
    const std::string now = link_now();
    if (!copied_link_.empty() && now != copied_link_) {  // what was copied is no longer what is shown
        if (note_ == views::tr("the link to this scene is in the address bar and on the clipboard")) note_.clear();
        copied_link_.clear();
    }
    if (now == shown_link_) return;
    shown_link_ = now;
    js_app_call("link", now.c_str(), "");
}

bool WebApp::cjk_font_loadable() const { return !font_failed_; }

void WebApp::load_cjk_font() {
    if (font_fetching_ || font_failed_) return;
    font_fetching_ = true;
    js_app_call("loadFont", "", "");  // app_page.js calls normlab_app_cjk_font once it is in
}

// F5 is the browser's reload: presenter mode is P in the page.
std::vector<int> WebApp::host_keys() const { return {GLFW_KEY_F5}; }

void WebApp::cjk_font_fetched(bool ok) {
    font_fetching_ = false;
    if (!ok) {
        font_failed_ = true;
        note_.clear();
        error_ = "the Chinese font (fonts/DroidSansFallbackFull.ttf) could not be loaded from this site";
        views::set_cjk_font(false, error_ + "; staying in English");
        return;
    }
    window_.reload_fonts();  // between frames (app_page.js calls in only then): the atlas with CJK glyphs
    presenter_look(shell_.presenter());
    glyphs_scale_ = 0;  // the report checks the new atlas' glyphs
    if (note_ == views::tr("loading the Chinese font…")) note_.clear();
    shell_.cjk_font_loaded();
}

// The File menu's actions, in its order, with the desktop's Ctrl keys where the page can take them from the
// browser (app_page.js keeps the browser's own action for these chords from running): Ctrl+O, Ctrl+S, Ctrl+E,
// Ctrl+Shift+C, Ctrl+P; a scene is pasted with the page's own Ctrl+V.
std::vector<views::Action> WebApp::file_actions(views::Shell& shell) {
    std::vector<views::Action> t;
    t.push_back({.id = "open",
                 .keys = {views::ctrl(GLFW_KEY_O)},
                 .menus = views::kFileMenu,
                 .menu_label = "Open a tensor or scene file (.npy, PNG, JPEG, .json)…",
                 .shortcut = "Ctrl+O",
                 .help_keys = "Ctrl+S  /  Ctrl+O",
                 .help_text = "save / open a scene or file",
                 .run = [](int) { js_app_call("pickFile", "", ""); }});
    t.push_back({.id = "open-style",
                 .menus = views::kFileMenu,
                 .menu_label = "Open an image as AdaIN's style (PNG, JPEG)…",
                 .run = [](int) { js_app_call("pickFile", "style", ""); }});
    t.push_back({.id = "save",
                 .keys = {views::ctrl(GLFW_KEY_S)},
                 .menus = views::kFileMenu,
                 .menu_label = "Save scene",
                 .shortcut = "Ctrl+S",
                 .run = [this](int) { download("scene"); }});
    t.push_back({.id = "save-stats",
                 .keys = {views::ctrl(GLFW_KEY_E)},
                 .menus = views::kFileMenu,
                 .menu_label = "Save statistics (.json)",
                 .shortcut = "Ctrl+E",
                 .help_keys = "Ctrl+E",
                 .help_text = "save the statistics (.json)",
                 .run = [this](int) { download("stats"); }});
    t.push_back({.id = "save-y", .menus = views::kFileMenu, .menu_label = "Save y (.npy)", .run = [this](int) {
                     download("y");
                 }});
    t.push_back(
        {.id = "copy-link", .menus = views::kFileMenu, .menu_label = "Copy link", .run = [this](int) { copy_link(); }});
    t.push_back({.id = "copy-scene",
                 .keys = {views::ctrl_shift(GLFW_KEY_C)},
                 .menus = views::kFileMenu,
                 .menu_label = "Copy scene (one line)",
                 .shortcut = "Ctrl+Shift+C",
                 .help_keys = "Ctrl+Shift+C  /  Ctrl+V",
                 .help_text = "copy / paste the scene as one line",
                 .run = [this](int) { copy_scene(); }});
    t.push_back({.id = "paste-scene",
                 .menus = views::kFileMenu,
                 .menu_label = "Paste scene",
                 .shortcut = "Ctrl+V",
                 .run = [this](int) {
                     note_ = views::tr("reading the clipboard (or press Ctrl+V on the page)");
                     js_app_call("pasteScene", "", "");
                 }});
    t.push_back({.id = "exercise",
                 .menus = views::kFileMenu,
                 .menu_label = "Exercise: hide and lock controls…",
                 .checked = [&shell] { return shell.exercise_open(); },
                 .run = [&shell](int) { shell.exercise_open() = !shell.exercise_open(); }});
    t.push_back({.id = "export-png",
                 .menus = views::kFileMenu,
                 .menu_label = "Export heatmap + histograms (PNG)",
                 .separator_before = true,
                 .run = [this](int) { save_png(true); }});
    t.push_back({.id = "screenshot",
                 .keys = {views::ctrl(GLFW_KEY_P)},
                 .menus = views::kFileMenu,
                 .menu_label = "Screenshot (PNG)",
                 .shortcut = "Ctrl+P",
                 .help_keys = "Ctrl+P",
                 .help_text = "screenshot (PNG)",
                 .run = [this](int) { save_png(false); }});
    return t;
}

void WebApp::status_bar(const views::Rect& r) {
    views::begin_panel("##status", r, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    const std::string refused = shell_.controls().error();
    // A line that does not fit (a phone) ends in "…" at the right edge; a tap shows all of it.
    const auto part = [](const std::string& text, const ImVec4* color) {
        const std::string shown = views::elided(text, ImGui::GetContentRegionAvail().x);
        if (color)
            ImGui::TextColored(*color, "%s", shown.c_str());
        else
            ImGui::TextUnformatted(shown.c_str());
        if (shown != text && ImGui::IsItemHovered()) views::elided_tooltip(text);
        if (shown == text) ImGui::SameLine();
        return shown == text;
    };
    const ImVec4 red(1, 0.45f, 0.45f, 1);
    bool room = true;
    if (!error_.empty() || !refused.empty())
        room = part(!error_.empty() ? error_ : refused, &red) &&
               part("|", &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    else if (!note_.empty())
        room = part(note_, nullptr) && part("|", &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    // WebGPU gives no GPU time here (no timestamp queries), nor the CPU: the recompute's wall time only.
    if (room)
        part(views::strf("%s  |  last recompute %.1f ms  |  max |y − float64 reference| = %.2e  |  %.0f fps",
                         page_.session().backend().device_name().c_str(), page_.session().recompute_ms(),
                         page_.session().max_error(), static_cast<double>(ImGui::GetIO().Framerate)),
             nullptr);
    ImGui::End();
}

void WebApp::draw() {
    std::vector<views::KeyPress> keys = window_.take_key_presses();
    for (views::KeyPress& k : keys)  // ⌘ on a Mac is the desktop's Ctrl (⌘S saves, ⌘O opens)
        if (k.mods & GLFW_MOD_SUPER) k.mods |= GLFW_MOD_CONTROL;
    shell_.draw(keys);
    keep_link();
    report();
}

}  // namespace normlab::web
