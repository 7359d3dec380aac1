// Shell: the frame, the menu bar, the action table over the shell's state, lessons and experiments.
// Its layout is in shell_layout.cpp.
#include "normlab/views/shell.hpp"

#include "normlab/views/exercise_ui.hpp"
#include "normlab/views/experiment_bar.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/views/language_menu.hpp"
#include "normlab/views/method_buttons.hpp"
#include "normlab/views/panel_windows.hpp"
#include "normlab/views/torch_window.hpp"
#include "normlab/views/train_inspect.hpp"
#include "normlab/views/wrapped_text.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the popups open (OpenPopupStack)

#include <algorithm>

#include <utility>

namespace normlab::views {

Shell::Shell(ShellPlatform& platform, session::Session& session, LessonPanel lessons)
    : platform_(platform),
      session_(session),
      heatmap_(platform.make_heatmap_image()),
      lessons_(std::move(lessons)),
      compare_(session, [&platform] { return platform.make_heatmap_image(); }),
      pair_(session, [&platform] { return platform.make_heatmap_image(); }),
      noise_([&platform] { return platform.make_backend(); }),
      gradient_(session, platform.make_heatmap_image()) {
    ImGui::GetIO().ConfigInputTextCursorBlink = false;  // an idle app draws no frame to blink in
    make_actions({});
}

void Shell::set_file_actions(std::vector<Action> rows) { make_actions(std::move(rows)); }

std::optional<std::string> Shell::inspect_layer(int run, int layer) {
    if (auto err = inspect_train_layer(session_, train_runs_, run, layer)) return err;
    experiment_ = nullptr;  // the tensor is the layer's, not an experiment's
    views_.compare = views_.gradient = false;
    heatmap_.mode = plan::HeatmapMode::Statistics;
    train_shown_ = false;  // the layout's next frame: a phone's tab follows
    return std::nullopt;
}

void Shell::draw(const std::vector<KeyPress>& keys) {
    // The runs' slices: polled, logs read, the next submitted; while one trains, frames keep coming.
    const bool training = train_runs_.tick();
    if (train_sweep_.tick() || training) pacer_.wake();
    run_shortcuts(actions_, keys, blank_);
    if (pair_experiment())
        if (auto err = pair_.follow(session_)) message(*err);
    const int touch_vars = push_touch_style();
    // A finger's lift does not choose an item of a popup opened under it (touch_input.hpp's PopupGuard).
    ImGuiIO& io = ImGui::GetIO();
    if (popup_guard_.swallow(frame_touch(), ImGui::GetCurrentContext()->OpenPopupStack.Size, io.MouseReleased[0]))
        io.MouseReleased[0] = false;
    menu_bar();
    menu_bar_h_ = ImGui::GetFrameHeight();
    layout(menu_bar_h_);
    platform_.own_windows();
    if (torch_open_) torch_window(torch_code_, torch_open_);
    if (exercise_open_)
        if (auto err = exercise_window(session_, exercise_open_, platform_.exercise_hint())) message(*err);
    help_overlay(actions_, help_);
    blank_screen(blank_);
    ImGui::PopStyleVar(touch_vars);
}

void Shell::set_presenter(bool on) {
    presenter_ = on;
    platform_.presenter_look(on);
}

void Shell::set_language(core::Language lang) {
    wanted_language_.reset();
    if (views::set_language(lang)) return;
    if (!platform_.cjk_font_loadable()) return message(cjk_missing_message());
    wanted_language_ = lang;
    message(tr("loading the Chinese font…"), false);
    platform_.load_cjk_font();
}

void Shell::cjk_font_loaded() {
    if (wanted_language_) set_language(*wanted_language_);
}

classroom::ViewSettings Shell::view() const {
    classroom::ViewSettings v = views_.view(heatmap_, experiment_);
    if (train_shown_ && !train_runs_.runs().empty()) {  // the Train view, its runs and the Sweep tab's fields
        v.train = train_runs_.scene();
        v.train->sweep = train_view_.scene_sweep(train_runs_, train_sweep_);
    }
    return v;
}

std::vector<classroom::LessonRun> Shell::lesson_runs() const {
    const classroom::Lesson* l = lessons_.lesson();
    if (!l) return {};
    return train_runs_.lesson_runs(l->steps[static_cast<std::size_t>(lessons_.step())].view.train);
}

std::vector<classroom::LessonRun> Shell::experiment_runs() const {
    return experiment_ ? train_runs_.lesson_runs(experiment_->view.train) : std::vector<classroom::LessonRun>{};
}

classroom::LessonSweep Shell::lesson_sweep() const {
    const classroom::Lesson* l = lessons_.lesson();
    return l ? train_sweep_.lesson_sweep(l->steps[static_cast<std::size_t>(lessons_.step())].view.train)
             : classroom::LessonSweep{};
}

classroom::LessonSweep Shell::experiment_sweep() const {
    return experiment_ ? train_sweep_.lesson_sweep(experiment_->view.train) : classroom::LessonSweep{};
}

void Shell::apply_view(const classroom::ViewSettings& v) {
    views_.show(v, heatmap_);
    if (!v.train) return;  // a view without "train" leaves the Train view as it is
    set_train(true);
    if (auto err = train_runs_.show(*v.train)) return message(*err);
    if (!v.train->sweep) return;  // a train object without "sweep" leaves the Sweep tab as it is
    if (auto err = train_view_.open_sweep(*v.train->sweep, train_runs_, train_sweep_)) message(*err);
}

void Shell::scene_shown(const classroom::ViewSettings& v, bool in_lesson) {
    experiment_ = nullptr;
    if (!in_lesson) lessons_.close();
    if (!v.experiment.empty()) start_experiment(v.experiment, session_.state());
    apply_view(v);  // after the experiment's own view: the scene's is what was shown
}

session::AppLink Shell::link_parts() const {
    session::AppLink link;
    if (const classroom::Lesson* l = lessons_.lesson()) {
        link.lesson = l->id;
        link.step = lessons_.step() + 1;
    }
    link.language = language();
    link.presenter = presenter_;
    return link;
}

void Shell::open_link(const session::AppLink& link, const OpenScene& open_scene) {
    if (link.presenter) set_presenter(*link.presenter);
    if (link.language) set_language(*link.language);
    int lesson = -1;
    for (int i = 0; link.lesson && i < lessons_.count(); ++i)
        if (lessons_.lessons()[static_cast<std::size_t>(i)].id == *link.lesson) lesson = i;
    if (lesson >= 0) go_to_step(lesson, link.step.value_or(1) - 1);
    if (!link.scene.empty() || lesson < 0)
        if (auto view = open_scene(link.scene)) scene_shown(*view, lesson >= 0);
    if (link.lesson && lesson < 0)  // after the scene, whose opening clears the last error
        message("the link's lesson '" + *link.lesson + "' is not one of this app's lessons");
}

bool Shell::sync_view_shown() const {
    return session_.result().sync && !views_.compare && !pair_experiment() && !views_.gradient && !views_.cube;
}

void Shell::go_to_step(int lesson, int step) {
    phone_tab_ = PhoneTab::Heatmap;  // a phone shows the step under the heatmap
    auto start = [this](const std::string& id, const core::State& st) { return try_experiment(id, st); };
    if (auto view = lessons_.go(lesson, step, session_, start)) {
        if (view->experiment.empty()) experiment_ = nullptr;
        if (!view->train) set_train(false);  // a lesson step shows the Train view where it names runs
        apply_view(*view);
    }
}

std::optional<std::string> Shell::try_experiment(const std::string& id, std::optional<core::State> state) {
    const StartedExperiment started = views::start_experiment(id, std::move(state), session_, pair_);
    if (!started.experiment) return started.error;
    experiment_ = started.experiment;
    apply_view(experiment_->view);
    return std::nullopt;
}

bool Shell::start_experiment(const std::string& id, std::optional<core::State> state) {
    auto err = try_experiment(id, std::move(state));
    if (err) message(*err);
    return !err;
}

// The experiment's bar above the heatmap (views/experiment_bar).
void Shell::experiment_bar() {
    const classroom::Experiment& e = *experiment_;
    experiment_heading(e, session_.x(), session_.result(), experiment_runs(), experiment_sweep());
    if (BatchNoisePanel::applies(e, session_)) noise_.draw(session_, e);
    auto report = [this](std::optional<std::string> err) {
        if (err) message(*err);
    };
    if (e.kind == classroom::ExperimentKind::Continuum && session_.state().spec.method == core::Method::Group) {
        report(group_slider(session_));
        continuum_identities(compare_, session_);
    }
    if (e.kind == classroom::ExperimentKind::TrainEval) report(train_eval_bar(session_));
    ImGui::Separator();
}

// The action table (actions.hpp) over the shell's state, with the platform's File rows.
void Shell::make_actions(std::vector<Action> file_rows) {
    ActionTarget t;
    t.session = [this]() -> session::Session& { return session_; };
    t.heatmap = &heatmap_;
    t.views = &views_;
    t.lessons = &lessons_;
    t.presenter = &presenter_;
    t.help = &help_;
    t.blank = &blank_;
    t.torch_open = &torch_open_;
    t.torch_code = &torch_code_;
    t.train = &train_shown_;
    t.train_runs = &train_runs_;
    t.set_presenter = [this](bool on) { set_presenter(on); };
    t.set_language = [this](core::Language l) { set_language(l); };
    t.go_to_step = [this](int lesson, int step) { go_to_step(lesson, step); };
    t.stop_experiment = [this] { stop_experiment(); };
    t.refused = [this](const std::string& line) { message(line); };
    actions_ = app_actions(t, std::move(file_rows), platform_.host_keys());
}

// The menus side by side, or folded into one Menu when they do not fit the screen's width (a phone).
void Shell::menu_bar() {
    if (!ImGui::BeginMainMenuBar()) return;
    menus_folded_ = !menus_fit();
    // On a phone, menu rows a finger hits: a row is a line of text and the item spacing.
    const bool phone = form_ == ScreenForm::Phone;
    if (phone) {
        const float row = touch_target_height(measure_layout(0));
        const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
        ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing,
                            ImVec2(spacing.x, std::max(spacing.y, row - ImGui::GetTextLineHeight())));
    }
    menu_row_h_ = ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.y;
    if (!menus_folded_) {
        menus();
    } else {
        const float x = ImGui::GetCursorScreenPos().x;
        menu_x_.fill(x);
        if (ImGui::BeginMenu(tr_id("Menu", "menu").c_str())) {
            menus();
            ImGui::EndMenu();
        }
    }
    if (phone) ImGui::PopStyleVar();
    ImGui::EndMainMenuBar();
}

bool Shell::menus_fit() const {
    float w = 0;
    for (const char* name : {"File", "View", "Language", "Lessons", "Experiments", "Help"})
        w += ImGui::CalcTextSize(tr(name)).x + 2 * ImGui::GetStyle().ItemSpacing.x;
    return w <= ImGui::GetIO().DisplaySize.x;
}

void Shell::menus() {
    // Where each menu starts (the browser's report gives it: its tests click them).
    auto at = [this](int i) {
        if (!menus_folded_) menu_x_[static_cast<std::size_t>(i)] = ImGui::GetCursorScreenPos().x;
    };
    at(0);
    if (ImGui::BeginMenu(tr_id("File", "file").c_str())) {
        menu_items(actions_, kFileMenu);
        ImGui::EndMenu();
    }
    at(4);
    view_menu();
    at(1);
    if (auto lang = language_menu(platform_.cjk_font_loadable())) set_language(*lang);
    at(2);
    if (auto go = lessons_.menu()) go_to_step(go->first, go->second);
    at(3);
    experiments_menu();
    if (ImGui::BeginMenu(tr_id("Help", "help").c_str())) {
        menu_items(actions_, kHelpMenu);
        ImGui::EndMenu();
    }
}

void Shell::view_menu() {
    if (!ImGui::BeginMenu(tr_id("View", "view").c_str())) return;
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

void Shell::experiments_menu() {
    if (!ImGui::BeginMenu(tr_id("Experiments", "experiments").c_str())) return;
    for (const auto& e : classroom::experiments())
        if (menu_item_fitting(tr(e.title), e.id, experiment_ == &e)) start_experiment(e.id);
    if (experiment_ && ImGui::MenuItem(tr("Close the experiment"), "Esc")) stop_experiment();
    ImGui::EndMenu();
}

}  // namespace normlab::views
