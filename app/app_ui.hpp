// AppUi: every panel of the app and how they are laid out (no docking in ImGui 1.86), the
// menus, the presenter mode (large fonts loaded at their size, high contrast, advanced
// controls hidden, heatmap and histograms enlarged), the language switch, lessons,
// experiments, the compare, pair and gradient views, export and the keyboard shortcuts (F1 lists them).
#pragma once
#include "actions.hpp"
#include "batch_noise_panel.hpp"
#include "compare_view.hpp"
#include "controls_panel.hpp"
#include "exercise_ui.hpp"
#include "method_buttons.hpp"
#include "explain_panel.hpp"
#include "gradient_view.hpp"
#include "heatmap_view.hpp"
#include "histogram_view.hpp"
#include "lesson_panel.hpp"
#include "pair_view.hpp"
#include "panel_layout.hpp"
#include "picture_panel.hpp"
#include "normlab/session.hpp"
#include "shown_views.hpp"
#include "stats_table.hpp"
#include "sync_view.hpp"
#include "torch_window.hpp"
#include "window.hpp"

#include "normlab/experiments.hpp"
#include "normlab/view_settings.hpp"

#include <imgui.h>

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace normlab::app {

// A PNG the main loop should write after this frame (F12, or the export menu).
struct CaptureRequest {
    std::string path;
    std::array<int, 4> crop{0, 0, 0, 0};  // x, y, w, h; zero: the whole window
};

class AppUi {
public:
    AppUi(const Window& window, Session& session, std::string export_dir);

    // One frame: the key presses since the last frame (in order), then every panel.
    void draw(const std::vector<KeyPress>& keys);
    void before_pass(vk::CommandBuffer cmd, vk::Extent2D extent);
    std::optional<CaptureRequest> take_capture() { return std::exchange(capture_, std::nullopt); }
    void captured(const std::string& path, const std::string& error);

    // Start-up settings (command line) and the actions the keys and menus trigger.
    void set_presenter(bool on);
    bool presenter() const { return presenter_; }
    void set_language(Language lang);
    void apply_view(const ViewSettings& v);
    ViewSettings view() const;
    LessonPanel& lessons() { return lessons_; }
    void go_to_step(int lesson, int step);
    bool start_experiment(const std::string& id, std::optional<State> state = std::nullopt);
    void stop_experiment();
    void set_method(Method m);
    void show_help(bool on) { help_ = on; }
    void set_gradient(bool on) { views_.gradient = on; }  // the gradient view (key D)
    void message(std::string text, bool error = false);
    const HeatmapView& heatmap() const { return heatmap_; }
    // What the keys change, as one line of JSON (--state-file): method, groups, lesson id and
    // step (1-based), language, presenter, compare, cube, help, blank, whether a text field has
    // the keyboard, and the frame number.
    std::string state_json(int frame) const;
    double frame_ms = 0;

private:
    // app_actions.cpp: the action table and what is generated from it.
    std::vector<Action> make_actions();
    std::vector<Action> file_actions();  // the File menu's rows, in its order
    void shortcuts(const std::vector<KeyPress>& keys);
    void menu_bar();
    void layout(float top);
    LayoutContent layout_content() const;
    void heatmap_area(const Rect& r);
    bool pictures_shown() const;
    void experiment_bar();
    void status_bar(const Rect& r);
    void scene_popups();
    void open_scene(const State& st, const std::string& name);
    void copy_scene();
    void paste_scene();
    void export_files();
    void export_png();
    void edit(const State& next);  // an edit that keeps the tensor; a refusal becomes the status message
    bool gradient_view_shown() const;
    bool pair_experiment() const { return experiment_ && experiment_->kind == ExperimentKind::Pair; }
    void explain_gradient();

    const Window& window_;
    Session& session_;
    std::string export_dir_;
    ControlsPanel controls_;
    HeatmapView heatmap_;
    HistogramView histograms_;
    StatsTable table_;
    ExplainPanel explain_;
    LessonPanel lessons_;
    VulkanImageSet view_images_;  // the compare, pair and gradient views' heatmap images
    CompareView compare_;
    PairView pair_;
    BatchNoisePanel noise_;
    GradientView gradient_;
    PicturePanel pictures_;
    const Experiment* experiment_ = nullptr;

    ShownViews views_;  // the compare view, the cube, the gradient view
    bool presenter_ = false, help_ = false, torch_open_ = false;
    bool blank_ = false;  // B or . (a presentation clicker): a black screen until the next key
    ImGuiStyle normal_style_, presenter_style_;
    std::string msg_;
    bool msg_error_ = false;
    std::chrono::steady_clock::time_point msg_time_;
    std::optional<CaptureRequest> capture_;
    std::array<float, 4> figure_rect_{0, 0, 0, 0};  // heatmap + histograms, for the PNG export
    float heat_chrome_ = 0;                         // the heatmap panel's height minus the image's room, last frame
    SyncArea sync_area_;                            // SyncBN: the heights of last frame's heatmap panel and devices
    bool open_save_ = false, open_load_ = false, exercise_open_ = false;
    std::string scene_path_ = "scene.normlab.json";  // the extension of the MIME type (packaging/)
    std::string torch_code_;
    std::vector<Action> actions_;  // keys, menu items and help rows (make_actions)
};

}  // namespace normlab::app
