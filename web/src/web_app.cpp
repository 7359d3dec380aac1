#include "web_app.hpp"

#include "compare_view.hpp"
#include "cube_view.hpp"
#include "exercise_ui.hpp"
#include "i18n.hpp"
#include "language_menu.hpp"
#include "method_buttons.hpp"
#include "page_bridge.hpp"
#include "panel_windows.hpp"
#include "png_file.hpp"
#include "torch_window.hpp"
#include "wrapped_text.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"
#include "normlab/file_kind.hpp"
#include "normlab/state_edits.hpp"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

WebApp::WebApp(WebWindow& window, webgpu::WgpuBackend& backend, const std::string& scene_text, app::LessonPanel lessons)
    : window_(window),
      page_(backend),
      image_(new WebHeatmapImage(backend.context())),
      heatmap_(std::unique_ptr<app::HeatmapImage>(image_)),
      make_image_([this, &backend] {
          view_images_.push_back(new WebHeatmapImage(backend.context()));
          return std::unique_ptr<app::HeatmapImage>(view_images_.back());
      }),
      compare_(page_.edit_session(), make_image_),
      pair_(page_.edit_session(), make_image_),
      gradient_(page_.edit_session(), make_image_()),
      lessons_(std::move(lessons)),
      noise_([&backend] { return std::make_unique<webgpu::WgpuBackend>(backend.context()); }) {
    controls_.pick_file = [] { js_app_call("pickFile", "", ""); };  // the browser's file chooser (File > Open…)
    controls_.pick_style_file = [] { js_app_call("pickFile", "style", ""); };
    if (!scene_text.empty() && open_scene(scene_text)) return;
    page_.open_scene("", "the default state");  // no scene, or one that cannot be shown: the error stays
}

bool WebApp::open_scene(const std::string& text, const std::string& name) {
    try {
        page_.open_scene(text, name);
        error_.clear();
        scene_shown();
        return true;
    } catch (const std::exception& e) {  // one line in the status bar; what is shown stays
        error_ = error_line(e);
        shown_link_ = "?";  // the address bar goes back to the shown state's scene
        return false;
    }
}

// A scene now shown ends an experiment and a lesson, as loading one does on the desktop, and brings
// its view (parsed and checked by PageSession's open).
void WebApp::scene_shown() {
    experiment_ = nullptr;
    lessons_.close();
    apply_view(page_.scene_view());
}

void WebApp::open_file(const std::string& path, const std::string& name) {
    opened(name, [&] {
        page_.open_file(path, name);
        if (file_kind(name) == FileKind::Scene)
            scene_shown();
        else
            experiment_ = nullptr;  // a file's tensor ends an experiment, as a scene does on the desktop
    });
}

void WebApp::open_style(const std::string& path, const std::string& name) {
    opened(name, [&] { page_.open_style(path, name); });
}

void WebApp::opened(const std::string& name, const std::function<void()>& open) {
    try {
        open();
        error_.clear();
        note_ = std::string(app::tr("opened ")) + name;
    } catch (const std::exception& e) {  // one line in the status bar; what is shown stays
        error_ = error_line(e);
        note_.clear();
    }
}

void WebApp::paste(const std::string& text, bool from_menu) {
    WebWindow::set_pasted_text(text);
    if (!from_menu && ImGui::GetIO().WantTextInput) return;  // Ctrl+V in a field: ImGui pastes it there
    if (open_scene(text, "pasted scene")) note_ = app::tr("scene pasted from the clipboard");
}

ViewSettings WebApp::view() const { return views_.view(heatmap_, experiment_); }

void WebApp::download(const std::string& kind) {
    try {
        auto [file, bytes] = page_.download(kind, view());
        std::filesystem::create_directories("/downloads");
        write_file_atomic("/downloads/" + file, bytes);
        js_app_call("download", ("/downloads/" + file).c_str(), file.c_str());
        note_ = std::string(app::tr("saved ")) + file;
        error_.clear();
    } catch (const std::exception& e) {
        error_ = error_line(e);
    }
}

void WebApp::save_png(bool figure) {
    const std::string file =
        std::string("normlab-") + method_name(session().state().spec.method) + (figure ? "-figure.png" : "-screen.png");
    const std::array<int, 4> crop = figure ? figure_rect_ : std::array<int, 4>{};
    window_.capture_next_frame([this, file, crop](app::RgbaImage full) {
        try {
            const app::RgbaImage shot = app::crop_image(full, crop);
            std::filesystem::create_directories("/downloads");
            write_file_atomic("/downloads/" + file, app::png_bytes(file, shot.width, shot.height, shot.rgba));
            js_app_call("download", ("/downloads/" + file).c_str(), file.c_str());
            note_ = std::string(app::tr("saved ")) + file;
            error_.clear();
        } catch (const std::exception& e) {
            error_ = error_line(e);
        }
    });
}

// The scene as one line on the clipboard, as the desktop's File > Copy scene (a file's tensor has none).
void WebApp::copy_scene() {
    const auto line = page_.link(view());
    error_.clear();
    if (!line) {
        note_ = page_.why_no_link();
        return;
    }
    ImGui::SetClipboardText(line->c_str());  // the page's clipboard (web_window)
    note_ = app::tr("scene copied to the clipboard as one line");
}

void WebApp::copy_link() {
    const auto line = page_.link(view());
    error_.clear();
    if (!line) {
        note_ = page_.why_no_link();
        return;
    }
    js_app_call("copyLink", line->c_str(), "");
    note_ = app::tr("the link to this scene is in the address bar and on the clipboard");
}

void WebApp::keep_link() {
    // The scene changes only with the Session's generation (every apply), its selection or the view.
    const Session& now_shown = page_.session();
    const ViewSettings v = view();
    if (shown_link_ != "?" && link_generation_ == now_shown.generation() &&
        link_selection_ == now_shown.state().selection && link_view_ == v)
        return;
    link_generation_ = now_shown.generation();
    link_selection_ = now_shown.state().selection;
    link_view_ = v;
    const auto line = page_.link(v);
    const std::string now = line ? *line : "";
    if (now == shown_link_) return;
    shown_link_ = now;
    js_app_call("link", now.c_str(), "");
}

void WebApp::file_menu() {
    if (!ImGui::BeginMenu(app::tr_id("File", "file").c_str())) return;
    app::menu_items(actions_, app::kFileMenu);  // the File rows below, then Copy as PyTorch (T)
    ImGui::EndMenu();
}

// The File menu's actions, in its order, with the desktop's Ctrl keys where the page can take them from the
// browser (app_page.js keeps the browser's own action for these chords from running): Ctrl+O, Ctrl+S, Ctrl+E,
// Ctrl+Shift+C, Ctrl+P; a scene is pasted with the page's own Ctrl+V.
std::vector<app::Action> WebApp::file_actions() {
    std::vector<app::Action> t;
    t.push_back({.id = "open",
                 .keys = {app::ctrl(GLFW_KEY_O)},
                 .menus = app::kFileMenu,
                 .menu_label = "Open a tensor or scene file (.npy, PNG, JPEG, .json)…",
                 .shortcut = "Ctrl+O",
                 .help_keys = "Ctrl+S  /  Ctrl+O",
                 .help_text = "save / open a scene or file",
                 .run = [](int) { js_app_call("pickFile", "", ""); }});
    t.push_back({.id = "open-style",
                 .menus = app::kFileMenu,
                 .menu_label = "Open an image as AdaIN's style (PNG, JPEG)…",
                 .run = [](int) { js_app_call("pickFile", "style", ""); }});
    t.push_back({.id = "save",
                 .keys = {app::ctrl(GLFW_KEY_S)},
                 .menus = app::kFileMenu,
                 .menu_label = "Save scene",
                 .shortcut = "Ctrl+S",
                 .run = [this](int) { download("scene"); }});
    t.push_back({.id = "save-stats",
                 .keys = {app::ctrl(GLFW_KEY_E)},
                 .menus = app::kFileMenu,
                 .menu_label = "Save statistics (.json)",
                 .shortcut = "Ctrl+E",
                 .help_keys = "Ctrl+E",
                 .help_text = "save the statistics (.json)",
                 .run = [this](int) { download("stats"); }});
    t.push_back({.id = "save-y", .menus = app::kFileMenu, .menu_label = "Save y (.npy)", .run = [this](int) {
                     download("y");
                 }});
    t.push_back(
        {.id = "copy-link", .menus = app::kFileMenu, .menu_label = "Copy link", .run = [this](int) { copy_link(); }});
    t.push_back({.id = "copy-scene",
                 .keys = {app::ctrl_shift(GLFW_KEY_C)},
                 .menus = app::kFileMenu,
                 .menu_label = "Copy scene (one line)",
                 .shortcut = "Ctrl+Shift+C",
                 .help_keys = "Ctrl+Shift+C  /  Ctrl+V",
                 .help_text = "copy / paste the scene as one line",
                 .run = [this](int) { copy_scene(); }});
    t.push_back({.id = "paste-scene",
                 .menus = app::kFileMenu,
                 .menu_label = "Paste scene",
                 .shortcut = "Ctrl+V",
                 .run = [this](int) {
                     note_ = app::tr("reading the clipboard (or press Ctrl+V on the page)");
                     js_app_call("pasteScene", "", "");
                 }});
    t.push_back({.id = "exercise",
                 .menus = app::kFileMenu,
                 .menu_label = "Exercise: hide and lock controls…",
                 .checked = [this] { return exercise_open_; },
                 .run = [this](int) { exercise_open_ = !exercise_open_; }});
    t.push_back({.id = "export-png",
                 .menus = app::kFileMenu,
                 .menu_label = "Export heatmap + histograms (PNG)",
                 .separator_before = true,
                 .run = [this](int) { save_png(true); }});
    t.push_back({.id = "screenshot",
                 .keys = {app::ctrl(GLFW_KEY_P)},
                 .menus = app::kFileMenu,
                 .menu_label = "Screenshot (PNG)",
                 .shortcut = "Ctrl+P",
                 .help_keys = "Ctrl+P",
                 .help_text = "screenshot (PNG)",
                 .run = [this](int) { save_png(false); }});
    return t;
}

void WebApp::set_presenter(bool on) {
    presenter_ = on;
    ImGui::GetIO().FontDefault = on ? window_.fonts().large : window_.fonts().normal;
}

void WebApp::set_language(Language lang) {
    if (!app::set_language(lang)) error_ = app::cjk_missing_message();
}

void WebApp::go_to_step(int lesson, int step) {
    auto start = [this](const std::string& id, const State& st) { return start_experiment(id, st); };
    if (auto view = lessons_.go(lesson, step, session(), start)) {
        if (view->experiment.empty()) experiment_ = nullptr;
        apply_view(*view);
    }
}

// As AppUi::start_experiment (views/experiment_bar).
std::optional<std::string> WebApp::start_experiment(const std::string& id, std::optional<State> state) {
    const app::StartedExperiment started = app::start_experiment(id, std::move(state), session(), pair_);
    if (!started.experiment) return started.error;
    experiment_ = started.experiment;
    apply_view(experiment_->view);
    return std::nullopt;
}

void WebApp::apply_view(const ViewSettings& v) { views_.show(v, heatmap_); }

// The experiment's bar above the heatmap: the desktop's shared parts (views/experiment_bar).
void WebApp::experiment_bar() {
    const Experiment& e = *experiment_;
    app::experiment_heading(e);
    if (app::BatchNoisePanel::applies(e, session())) noise_.draw(session(), e);
    std::optional<std::string> err;
    if (e.kind == ExperimentKind::Continuum && session().state().spec.method == Method::Group) {
        err = app::group_slider(session());
        app::continuum_identities(compare_, session());
    }
    if (e.kind == ExperimentKind::TrainEval) err = app::train_eval_bar(session());
    if (err) error_ = *err;
    ImGui::Separator();
}

// The action table both apps share (views/actions.hpp), over this app's state: the keys 1–5, H, + and −, L,
// F5 or P, C, D, K, T, B or ., N and E, → and ←, Esc and F1 (or ?), the View and Help menus' items and the
// F1 overlay. The browser's File menu has its own items (file_menu).
std::vector<app::Action> WebApp::make_actions() {
    app::ActionTarget t;
    t.session = [this]() -> Session& { return session(); };
    t.heatmap = &heatmap_;
    t.views = &views_;
    t.lessons = &lessons_;
    t.presenter = &presenter_;
    t.help = &help_;
    t.blank = &blank_;
    t.torch_open = &torch_open_;
    t.torch_code = &torch_code_;
    t.set_presenter = [this](bool on) { set_presenter(on); };
    t.set_language = [this](Language l) { set_language(l); };
    t.go_to_step = [this](int lesson, int step) { go_to_step(lesson, step); };
    t.stop_experiment = [this] { experiment_ = nullptr; };
    t.refused = [this](const std::string& line) { error_ = line; };
    return app::app_actions(t, file_actions());
}

void WebApp::menu_bar() {
    if (!ImGui::BeginMainMenuBar()) return;
    // The desktop's menus; where each starts goes into the report (the tests click them).
    auto at = [this](int i) { menu_x_[static_cast<std::size_t>(i)] = ImGui::GetCursorScreenPos().x; };
    at(0);
    file_menu();
    at(1);
    if (auto lang = app::language_menu()) set_language(*lang);  // key L
    at(2);
    if (auto go = lessons_.menu()) go_to_step(go->first, go->second);
    at(3);
    if (ImGui::BeginMenu(app::tr_id("Experiments", "experiments").c_str())) {
        for (const auto& e : experiments())
            if (ImGui::MenuItem((app::tr(e.title) + "##" + e.id).c_str(), nullptr, experiment_ == &e))
                if (auto err = start_experiment(e.id)) error_ = *err;
        if (experiment_ && ImGui::MenuItem(app::tr("Close the experiment"), "Esc")) experiment_ = nullptr;
        ImGui::EndMenu();
    }
    at(4);
    if (ImGui::BeginMenu(app::tr_id("View", "view").c_str())) {
        app::menu_items(actions_, app::kViewMenu);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(app::tr_id("Help", "help").c_str())) {
        app::menu_items(actions_, app::kHelpMenu);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

// The panels at the desktop layout's rectangles (panel_layout.hpp), as AppUi::layout places them.
// What the layout has to place (as AppUi::layout_content).
app::LayoutContent WebApp::layout_content() {
    app::LayoutContent c;
    c.shape = session().x().shape;
    c.heat_chrome = heat_chrome_;
    c.lessons = lessons_.active() || !lessons_.error().empty();
    c.cube = views_.cube;
    c.compare = views_.compare;
    c.pair = pair_experiment();
    c.gradient = views_.gradient;
    c.pictures = pictures_on_ = app::PicturePanel::wanted(session()) && !gradient_shown();
    c.sync = session().result().sync.has_value();
    c.sync_chrome = sync_area_.chrome;
    c.sync_need = sync_area_.need;
    return c;
}

// The heatmap panel: the presenter's row, the experiment's bar, then the heatmap or the view in its
// place (as AppUi::heatmap_area).
void WebApp::heatmap_area(const app::Rect& r) {
    app::begin_panel(app::heatmap_window_title(session(), {views_.compare, pair_experiment(), views_.gradient}), r);
    heatmap_.show_controls = !presenter_;
    heatmap_.center = presenter_;
    if (presenter_)  // one row: the methods, then the heatmap's modes (key H cycles them)
        if (auto err =
                app::presenter_row(session(), heatmap_, !views_.gradient && !views_.compare && !pair_experiment()))
            error_ = *err;
    if (experiment_) experiment_bar();
    if (views_.compare)
        compare_.draw(session(), views_.cube);
    else if (pair_experiment())
        pair_.draw(session(), views_.gradient);
    else if (views_.gradient)
        gradient_.draw(session());
    else if (views_.cube)
        app::heatmap_beside_cube(heatmap_, session());
    else if (session().result().sync)  // SyncBN: the heatmap above, the devices and modes below
        app::heatmap_above_sync_view(heatmap_, session(), presenter_, r.h, sync_area_);
    else
        heatmap_.draw(session());
    ImGui::End();
}

void WebApp::panels(float top) {
    const app::LayoutContent c = layout_content();
    const app::LayoutMetrics m = app::measure_layout(top);
    const app::PanelRects r = presenter_ ? app::presenter_layout(m, c) : app::normal_layout(m, c);
    if (r.controls) {
        app::begin_panel(app::tr_id("Tensor & method", "controls"), *r.controls);
        controls_.draw(session());
        ImGui::End();
    }
    heatmap_area(r.heatmap);
    if (r.measure_heat_chrome) heat_chrome_ = r.heatmap.h - heatmap_.image_room_h();
    if (r.pictures) {  // the pictures across the width, the histograms under them
        app::begin_panel(app::tr_id("Pictures", "pictures"), *r.pictures);
        pictures_.draw(session());
        ImGui::End();
    }
    figure_rect_ = {static_cast<int>(r.figure.x), static_cast<int>(r.figure.y), static_cast<int>(r.figure.w),
                    static_cast<int>(r.figure.h)};
    if (r.histograms) {
        app::begin_panel(app::tr_id("Histograms (GPU)", "histograms"), *r.histograms);
        if (gradient_shown())
            gradient_.draw_histograms(session(), presenter_);
        else if (auto bins = histograms_.draw(session().histograms(), session().bins(), presenter_))
            session().set_bins(*bins);
        ImGui::End();
    }
    if (r.lesson) {
        app::begin_panel(app::tr_id("Lesson", "lesson"), *r.lesson);
        if (auto go = lessons_.draw(presenter_, session().x(), session().result())) go_to_step(go->first, go->second);
        ImGui::End();
    }
    app::begin_panel(app::tr_id("Explain", "explain"), r.explain);
    if (!app::hidden_panel(session(), Control::Explain)) {
        explain_.draw(session());
        if (const std::string text = gradient_shown() ? gradient_.explain(session()) : ""; !text.empty()) {
            ImGui::Separator();
            app::wrapped_text(text);
        }
    }
    ImGui::End();
    if (r.stats) {
        app::begin_panel(app::tr_id("Statistics", "stats"), *r.stats);
        if (!app::hidden_panel(session(), Control::Statistics)) table_.draw(session());
        ImGui::End();
    }
    status_bar(r.status);
    if (exercise_open_)
        if (auto err = app::exercise_window(
                session(), exercise_open_,
                "Then save the scene (File > Save scene) or copy its link (File > Copy link) for the class."))
            error_ = *err;
    if (torch_open_) app::torch_window(torch_code_, torch_open_);
    app::help_overlay(actions_, help_);
    app::blank_screen(blank_);
}

void WebApp::status_bar(const app::Rect& r) {
    app::begin_panel("##status", r, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    const std::string refused = controls_.error();
    if (!error_.empty() || !refused.empty()) {
        ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "%s", !error_.empty() ? error_.c_str() : refused.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    } else if (!note_.empty()) {
        ImGui::TextUnformatted(note_.c_str());
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
    std::vector<app::KeyPress> keys = window_.take_key_presses();
    for (app::KeyPress& k : keys)  // ⌘ on a Mac is the desktop's Ctrl (⌘S saves, ⌘O opens)
        if (k.mods & GLFW_MOD_SUPER) k.mods |= GLFW_MOD_CONTROL;
    app::run_shortcuts(actions_, keys, blank_);
    if (pair_experiment())
        if (auto err = pair_.follow(session())) error_ = *err;
    menu_bar();
    panels(ImGui::GetFrameHeight());
    keep_link();
    report();
}

}  // namespace normlab::web
