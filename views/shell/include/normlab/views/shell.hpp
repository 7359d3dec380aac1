// Shell: the one app both programs show — the desktop's normlab (app/, AppUi) and the browser's
// app.html (web/src, WebApp) — over a small platform interface (ShellPlatform) that each of them
// implements. The shell holds every panel, the view flags, the action table (keys, menus, F1
// help), the menu bar, the layout (panel_layout.hpp: normal and presenter mode), lessons and
// experiments, the Train view and its runs, and draws one frame of them; the platform gives it the
// training runs' devices (set_train_factory), the heatmap pictures' device,
// a backend for the batch-noise panel, its File menu rows, the status bar, messages and the
// presenter mode's look (fonts, style).
#pragma once
#include "normlab/views/actions.hpp"
#include "normlab/views/batch_noise_panel.hpp"
#include "normlab/views/compare_view.hpp"
#include "normlab/views/controls_panel.hpp"
#include "normlab/views/explain_panel.hpp"
#include "normlab/views/frame_pacer.hpp"
#include "normlab/views/gradient_view.hpp"
#include "normlab/views/heatmap_panel.hpp"
#include "normlab/views/histogram_view.hpp"
#include "normlab/views/lesson_panel.hpp"
#include "normlab/views/pair_view.hpp"
#include "normlab/views/panel_layout.hpp"
#include "normlab/views/picture_panel.hpp"
#include "normlab/views/shown_views.hpp"
#include "normlab/views/stats_table.hpp"
#include "normlab/views/sync_view.hpp"
#include "normlab/views/touch_input.hpp"
#include "normlab/views/train_view.hpp"

#include "normlab/classroom/experiments.hpp"
#include "normlab/session/app_link.hpp"
#include "normlab/session/session.hpp"
#include "normlab/classroom/view_settings.hpp"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab::views {

class Shell;

// What differs between the desktop and the browser.
class ShellPlatform {
public:
    virtual ~ShellPlatform() = default;
    // A picture for a heatmap panel on this platform's device (the main heatmap's and each view's).
    virtual std::unique_ptr<HeatmapImage> make_heatmap_image() = 0;
    // A compute backend of its own, for the batch-noise panel's many small runs.
    virtual std::unique_ptr<plan::ComputeBackend> make_backend() = 0;
    // One line for the status bar: an error (a refused edit, a failed open) or a note.
    virtual void message(const std::string& text, bool error) = 0;
    // The File menu's rows (the table's "file" rows: saving, opening, exporting on this platform).
    virtual std::vector<Action> file_actions(Shell& shell) = 0;
    // Presenter mode's fonts and style.
    virtual void presenter_look(bool on) = 0;
    // The status bar at the layout's rectangle.
    virtual void status_bar(const Rect& r) = 0;
    // What the exercise window tells the teacher to do with the scene.
    virtual const char* exercise_hint() const = 0;
    // After the panels, before the overlays: the platform's own windows (the desktop's file dialogs).
    virtual void own_windows() {}
    // Whether a CJK font can be loaded when Chinese is asked for (the browser fetches it then), and
    // loading it: the platform calls Shell::cjk_font_loaded once it is in.
    virtual bool cjk_font_loadable() const { return false; }
    virtual void load_cjk_font() {}
    // The Train view's sweep exports (Export CSV, Export PNG): `bytes` saved as the file `name` (the
    // desktop's export folder, the browser's downloads), and the window's pixels in `crop` (x, y, w, h)
    // after this frame as the PNG `name`. Each says in the status bar what it wrote, or why not.
    virtual void save_export(const std::string& name, const std::string& bytes) = 0;
    virtual void save_export_png(const std::string& name, std::array<int, 4> crop) = 0;
    // The keys the platform leaves to its host (the browser keeps F5, its reload): no action takes them.
    virtual std::vector<int> host_keys() const { return {}; }
};

class Shell {
public:
    Shell(ShellPlatform& platform, session::Session& session, LessonPanel lessons = {});
    Shell(const Shell&) = delete;
    Shell& operator=(const Shell&) = delete;

    // One frame below the menu bar's top: the key presses since the last frame (in order), the
    // menu bar, every panel at the layout's rectangles, the windows and overlays.
    void draw(const std::vector<KeyPress>& keys);
    // When the next frame must be drawn: an idle app draws none (frame_pacer.hpp).
    FramePacer& pacer() { return pacer_; }

    // Start-up settings (command line, a scene or a link) and what the keys and menus trigger.
    void set_presenter(bool on);
    bool presenter() const { return presenter_; }
    void set_language(core::Language lang);
    // The platform's CJK font is in (ShellPlatform::load_cjk_font): Chinese, if it is still the
    // language asked for.
    void cjk_font_loaded();
    void apply_view(const classroom::ViewSettings& v);
    // What the view shows now (heatmap mode, colours, compare, cube, gradient, experiment).
    classroom::ViewSettings view() const;
    void go_to_step(int lesson, int step);
    // The Train view's runs as the lesson step's text reads them: none unless they are the step's own.
    std::vector<classroom::LessonRun> lesson_runs() const;
    // Likewise for the experiment shown: none unless they are its own.
    std::vector<classroom::LessonRun> experiment_runs() const;
    // The Sweep tab's sweep as the lesson step's / the experiment's text reads it (sweep[i]: TrainSweep::lesson_sweep).
    classroom::LessonSweep lesson_sweep() const;
    classroom::LessonSweep experiment_sweep() const;
    // The experiment `id` (with `state`, a scene's, instead of its own); false, with its message, when it cannot start.
    bool start_experiment(const std::string& id, std::optional<core::State> state = std::nullopt);
    void stop_experiment() { experiment_ = nullptr; }
    // A scene now shown (its view `v`): an experiment and a lesson no longer describe it (unless
    // `in_lesson`: a link's scene of the lesson step it names); the experiment its view names starts
    // on its state.
    void scene_shown(const classroom::ViewSettings& v, bool in_lesson = false);
    // What a link carries besides the scene: the lesson and step shown, the language, presenter mode.
    session::AppLink link_parts() const;
    // Opens a link (app_link.hpp): its presenter mode, language and lesson step, then its scene —
    // also the empty one (the default state) when it names no lesson — through `open_scene`, the
    // platform's (it replaces the Session's state and returns the scene's view, or says why not and
    // returns nothing), shown by scene_shown.
    using OpenScene = std::function<std::optional<classroom::ViewSettings>(const std::string& scene)>;
    void open_link(const session::AppLink& link, const OpenScene& open_scene);
    void show_help(bool on) { help_ = on; }
    void set_gradient(bool on) { views_.gradient = on; }
    // The Train view (key R, the View menu; a phone's Train tab) and the factory of its runs' devices
    // (none: the view says training is not available on this backend).
    void set_train(bool on) { train_shown_ = on; }
    bool train_shown() const { return form_ == ScreenForm::Phone ? phone_tab_ == PhoneTab::Train : train_shown_; }
    void set_train_factory(TrainDeviceFactory factory) {
        train_sweep_.cancel();  // its device is the old factory's
        train_runs_.set_factory(std::move(factory));
    }
    TrainRunSet& train_runs() { return train_runs_; }
    const TrainRunSet& train_runs() const { return train_runs_; }
    // The Train view's sweep (train_sweep.hpp): it runs while the view is hidden too.
    TrainSweep& train_sweep() { return train_sweep_; }
    const TrainSweep& train_sweep() const { return train_sweep_; }
    // Inspect layer (train_inspect.hpp): layer `layer` of run `run` (0-based) opened as the tensor, the
    // tensor views shown in the Train view's place with the heatmap's statistic groups; the refusal, or nothing.
    std::optional<std::string> inspect_layer(int run, int layer);
    const TrainView& train_view() const { return train_view_; }
    TrainView& train_view() { return train_view_; }
    // The File menu's rows, from the platform (call once the platform is made).
    void set_file_actions(std::vector<Action> rows);

    // What is shown, for the platform's status bar, report and exports.
    const classroom::Experiment* experiment() const { return experiment_; }
    bool pair_experiment() const { return experiment_ && experiment_->kind == classroom::ExperimentKind::Pair; }
    // The gradient view in the heatmap's place (not under the compare or pair view).
    bool gradient_shown() const { return views_.gradient && !views_.compare && !pair_experiment(); }
    // The SyncBN view under the heatmap (SyncBN's result, no other view in the heatmap's place).
    bool sync_view_shown() const;
    bool pictures_shown() const { return PicturePanel::wanted(session_) && !gradient_shown(); }
    const ShownViews& views() const { return views_; }
    // The action table (keys, menu items, the F1 help's rows).
    const std::vector<Action>& actions() const { return actions_; }
    HeatmapPanel& heatmap() { return heatmap_; }
    const HeatmapPanel& heatmap() const { return heatmap_; }
    ControlsPanel& controls() { return controls_; }
    const ControlsPanel& controls() const { return controls_; }
    LessonPanel& lessons() { return lessons_; }
    const LessonPanel& lessons() const { return lessons_; }
    const GradientView& gradient() const { return gradient_; }
    const PicturePanel& pictures() const { return pictures_; }
    const BatchNoisePanel& noise() const { return noise_; }
    const SyncArea& sync_area() const { return sync_area_; }
    const std::string& torch_code() const { return torch_code_; }
    bool help() const { return help_; }
    bool blank() const { return blank_; }
    bool torch_open() const { return torch_open_; }
    bool& exercise_open() { return exercise_open_; }
    bool exercise_open() const { return exercise_open_; }
    // The form of screen the last frame was laid out for, a phone's tab, whether the menus were
    // folded into one (a narrow screen) and the menu bar's height (ImGui units).
    ScreenForm form() const { return form_; }
    PhoneTab phone_tab() const { return phone_tab_; }
    void set_phone_tab(PhoneTab t) { phone_tab_ = t; }
    bool menus_folded() const { return menus_folded_; }
    float menu_bar_height() const { return menu_bar_h_; }
    // The menus' rows, from one to the next (ImGui units; a finger's height on a phone).
    float menu_row_height() const { return menu_row_h_; }
    // The heatmap and histograms (x, y, w, h in whole ImGui units), the figure export's crop.
    const std::array<int, 4>& figure_rect() const { return figure_rect_; }
    // Where the File, Language, Lessons, Experiments and View menus start (ImGui units).
    const std::array<float, 5>& menu_x() const { return menu_x_; }

private:
    void menu_bar();
    void view_menu();
    void experiments_menu();
    LayoutContent layout_content() const;
    void layout(float top);
    void heatmap_area(const Rect& r);
    void experiment_bar();
    void explain_area();
    void phone_tabs(const Rect& r);
    // On a phone or a tablet: controls a finger hits (touch_target_height); returns the style
    // variables pushed.
    int push_touch_style();
    bool menus_fit() const;
    void menus();
    void make_actions(std::vector<Action> file_rows);
    // Starts the experiment, or says why not (without a message: a lesson step shows it itself).
    std::optional<std::string> try_experiment(const std::string& id, std::optional<core::State> state);
    void message(const std::string& text, bool error = true) { platform_.message(text, error); }

    ShellPlatform& platform_;
    session::Session& session_;
    ControlsPanel controls_;
    HeatmapPanel heatmap_;
    HistogramView histograms_;
    StatsTable table_;
    ExplainPanel explain_;
    LessonPanel lessons_;
    CompareView compare_;
    PairView pair_;
    BatchNoisePanel noise_;
    GradientView gradient_;
    PicturePanel pictures_;
    const classroom::Experiment* experiment_ = nullptr;  // the running experiment (its bar above the heatmap)
    ShownViews views_;                                   // the compare view, the cube, the gradient view
    bool presenter_ = false, help_ = false, torch_open_ = false, exercise_open_ = false;
    bool blank_ = false;  // B or . (a presentation clicker): a black screen until the next key
    std::string torch_code_;
    std::array<int, 4> figure_rect_{0, 0, 0, 0};
    std::array<float, 5> menu_x_{};
    float heat_chrome_ = 0;        // the heatmap panel's height minus its image's room, last frame (panel_layout.hpp)
    SyncArea sync_area_;           // SyncBN: the heights of last frame's heatmap panel and devices
    std::vector<Action> actions_;  // keys, menu items and help rows (actions.hpp)
    FramePacer pacer_;
    TrainRunSet train_runs_;  // the Train view's runs (they train while the view is hidden too)
    TrainSweep train_sweep_;  // the Train view's sweep (one run at a time, beside the runs)
    TrainView train_view_;
    bool train_shown_ = false, train_was_ = false;  // train_was_: as the phone's tab last followed it
    ScreenForm form_ = ScreenForm::Wide;
    PhoneTab phone_tab_ = PhoneTab::Heatmap;
    bool menus_folded_ = false;
    float menu_bar_h_ = 0, menu_row_h_ = 0;
    std::optional<core::Language> wanted_language_;  // asked for while the platform loads its font
    PopupGuard popup_guard_;                         // a finger's lift over a popup opened under it does nothing
};

}  // namespace normlab::views
