// WebApp: normlab's panels in the browser (app.html): the app's own Controls panel, heatmap (the ImGui
// part, views/heatmap_panel, with hover, click-to-highlight and the modes; its picture filled by
// heatmap.wgsl and drawn as a WebGL texture, web_heatmap_image), histograms, Explain and statistics
// table, laid out by the desktop's panel layout (normal and presenter mode, F5 or P), over the app's
// model: a PageSession's Session on the WebGPU backend, whose every edit is Session::apply, as on the
// desktop. The menu bar has the File, Language, Lessons, Experiments, View and Help menus; the keys, the View
// and Help items and the F1 overlay come from the action table both apps share (views/actions.hpp). A lesson step
// is the desktop's (views/lesson_panel: its State, text and view), as are an experiment's bar
// (views/experiment_bar) and the compare, pair and gradient views (views/compare_view, pair_view,
// gradient_view: their heatmaps filled by heatmap.wgsl, the gradients from the WGSL backward), the pictures of an
// image tensor and AdaIN (views/picture_panel), the presenter's method buttons (views/method_buttons), exercises
// (views/exercise_ui), "Copy as PyTorch" (views/torch_window) and the small-batch experiment's batch-noise
// measurement (views/batch_noise_panel, on a WebGPU backend of its own) and the SyncBN view (views/sync_view, on the
// WebGPU backend's SyncBN). The File menu opens files (the browser's file
// chooser, or a drop), downloads the scene, statistics, y, a screenshot or the figure, copies the link or the scene
// line; a scene line pasted into the page (Ctrl+V outside a text field) opens. After each frame whose report
// changed, a JSON report goes to the page (normlabPage.report: what is drawn where, for the web tests).
#pragma once
#include "actions.hpp"
#include "batch_noise_panel.hpp"
#include "compare_view.hpp"
#include "controls_panel.hpp"
#include "gradient_view.hpp"
#include "experiment_bar.hpp"
#include "explain_panel.hpp"
#include "heatmap_panel.hpp"
#include "histogram_view.hpp"
#include "lesson_panel.hpp"
#include "page_session.hpp"
#include "pair_view.hpp"
#include "panel_layout.hpp"
#include "picture_panel.hpp"
#include "shown_views.hpp"
#include "stats_table.hpp"
#include "sync_view.hpp"
#include "web_heatmap_image.hpp"
#include "web_window.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::web {

// Steps of the start and when each ended (emscripten_get_now(): ms since the navigation started).
using StartupTimes = std::vector<std::pair<std::string, double>>;

class WebApp {
public:
    // Normalizes the scene `scene_text` (empty: the default State). A scene that cannot be shown
    // leaves its one-line error in the status bar and the default State on screen. Throws
    // DeviceError / InputError only when the default State cannot run either. `lessons`: the
    // built-in lessons (loaded before the window, whose font atlas needs their Chinese glyphs).
    WebApp(WebWindow& window, webgpu::WgpuBackend& backend, const std::string& scene_text, app::LessonPanel lessons);

    // A scene pasted into the address bar (empty: the default State): shown, or (false) its
    // one-line error in the status bar with what is shown kept.
    bool open_scene(const std::string& text, const std::string& name = "the scene in the URL");
    // Text pasted into the page (Ctrl+V) or read from the clipboard (File > Paste scene): into the
    // text field that has the keyboard, which ImGui pastes it into, or else opened as a scene line.
    void paste(const std::string& text, bool from_menu);
    // A file the page wrote into its file system at `path` (picked with File > Open… or dropped on
    // the page; `name` is what the user opened): PageSession::open_file, or its one-line error in
    // the status bar with what is shown kept.
    void open_file(const std::string& path, const std::string& name);
    // An image picked as AdaIN's style (File > Open an image as AdaIN's style…, or the Controls
    // panel's button): PageSession::open_style, or its one line with what is shown kept.
    void open_style(const std::string& path, const std::string& name);
    // One frame: the keys, the menu bar, the panels and the status bar, then the report.
    void draw();
    void set_startup(StartupTimes t) { startup_ = std::move(t); }

private:
    Session& session() { return page_.edit_session(); }
    // open(), then "opened NAME" in the status bar, or its error's one line with what is shown kept.
    void opened(const std::string& name, const std::function<void()>& open);
    std::vector<app::Action> make_actions();
    std::vector<app::Action> file_actions();
    // The desktop's AppUi::go_to_step, start_experiment and apply_view.
    void go_to_step(int lesson, int step);
    std::optional<std::string> start_experiment(const std::string& id, std::optional<State> state = std::nullopt);
    void apply_view(const ViewSettings& v);
    void experiment_bar();
    bool pair_experiment() const { return experiment_ && experiment_->kind == ExperimentKind::Pair; }
    // As AppUi::gradient_view_shown: the gradient view in the heatmap's place (not the compare or pair view).
    bool gradient_shown() const { return views_.gradient && !views_.compare && !pair_experiment(); }
    // The SyncBN view under the heatmap (SyncBN's result, no other view in the heatmap's place).
    bool sync_view_shown() const {
        return page_.session().result().sync && !views_.compare && !pair_experiment() && !views_.gradient &&
               !views_.cube;
    }
    void scene_shown();
    void menu_bar();
    void file_menu();
    // File > Save …: PageSession::download written to /downloads and handed to the browser.
    void download(const std::string& kind);
    void copy_link();
    void copy_scene();
    // File > Screenshot / Export heatmap + histograms: the next frame's pixels (the figure's part, when
    // `figure`) as a PNG download.
    void save_png(bool figure);
    // What the view shows now (heatmap mode, colours, compare, cube, gradient, experiment): the link's "view".
    ViewSettings view() const;
    // Keeps the address bar's #normlab-scene:… the shown state's (history.replaceState: no reload).
    void keep_link();
    app::LayoutContent layout_content();
    void heatmap_area(const app::Rect& r);
    void panels(float top);
    void status_bar(const app::Rect& r);
    void set_presenter(bool on);
    // The language of the panels; where the CJK font is missing, its one line in the status bar.
    void set_language(Language lang);
    void report();
    nlohmann::json state_report() const;
    nlohmann::json layout_report() const;

    WebWindow& window_;
    PageSession page_;
    WebHeatmapImage* image_;  // owned by heatmap_
    app::HeatmapPanel heatmap_;
    app::ControlsPanel controls_;
    app::StatsTable table_;
    app::ExplainPanel explain_;
    app::HistogramView histograms_;
    std::vector<WebHeatmapImage*> view_images_;  // owned by the compare, pair and gradient views' panels
    app::MakeHeatmapImage make_image_;
    app::CompareView compare_;
    app::PairView pair_;
    app::GradientView gradient_;
    app::LessonPanel lessons_;
    app::PicturePanel pictures_;
    app::BatchNoisePanel noise_;
    const Experiment* experiment_ = nullptr;  // the running experiment (its bar above the heatmap)
    std::array<float, 5>
        menu_x_{};           // where the File, Language, Lessons, Experiments and View menus start (ImGui units)
    app::ShownViews views_;  // the compare view, the cube, the gradient view
    bool presenter_ = false, exercise_open_ = false, torch_open_ = false, pictures_on_ = false, help_ = false;
    bool blank_ = false;  // B or . (a presentation clicker): a black screen until the next key
    std::vector<app::Action> actions_ = make_actions();  // keys, View and Help items, the F1 rows
    std::string torch_code_;
    std::array<int, 4> figure_rect_{};   // the heatmap and histograms (canvas pixels), for the figure PNG
    app::SyncArea sync_area_;            // SyncBN: the heights of last frame's heatmap panel and devices
    float heat_chrome_ = 0;              // the heatmap panel's height minus its image's room (panel_layout.hpp)
    std::string error_;                  // the last open's error line ("" after a successful one)
    std::string note_;                   // the last file action's line (not an error)
    std::string shown_link_ = "?";       // the scene line the address bar holds ("?": to be sent again)
    std::uint64_t link_generation_ = 0;  // the Session's generation and selection shown_link_ is of
    std::optional<Index4> link_selection_;
    ViewSettings link_view_;
    std::string last_report_, missing_;  // missing_: Chinese glyphs the atlas lacks (drawn as '?')
    float glyphs_scale_ = 0;
    StartupTimes startup_;
};

}  // namespace normlab::web
