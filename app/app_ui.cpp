#include "app_ui.hpp"

#include "cube_view.hpp"
#include "exporter.hpp"
#include "i18n.hpp"
#include "wrapped_text.hpp"
#include "sync_view.hpp"

#include "normlab/error.hpp"
#include "normlab/state_edits.hpp"
#include "normlab/torch_code.hpp"

#include <nlohmann/json.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only (ImGui 1.86 indexes keys by the backend's codes)

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

namespace normlab::app {
namespace {

constexpr const char* kHeatmapIds[4] = {"input", "output", "diff", "stats"};

constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                    ImGuiWindowFlags_NoSavedSettings;

void place(const std::string& name, float x, float y, float w, float h, ImGuiWindowFlags extra = 0) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
    ImGui::Begin(name.c_str(), nullptr, kFixed | extra);
}

bool is_modifier(int key) {
    return (key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER) || key == GLFW_KEY_CAPS_LOCK ||
           key == GLFW_KEY_NUM_LOCK || key == GLFW_KEY_SCROLL_LOCK;
}

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

AppUi::AppUi(const Window& window, Session& session, std::string export_dir)
    : window_(window),
      session_(session),
      export_dir_(std::move(export_dir)),
      heatmap_(window.context(), window.render_pass()),
      compare_(window.context(), window.render_pass()),
      pair_(window.context(), window.render_pass()),
      gradient_(window.context(), window.render_pass()) {
    normal_style_ = ImGui::GetStyle();
    presenter_style_ = make_presenter_style(normal_style_);
}

void AppUi::message(std::string text, bool error) {
    msg_ = std::move(text);
    msg_error_ = error;
    msg_time_ = std::chrono::steady_clock::now();
    if (error) std::fprintf(stderr, "warning: %s\n", msg_.c_str());
}

void AppUi::set_presenter(bool on) {
    presenter_ = on;
    ImGui::GetStyle() = on ? presenter_style_ : normal_style_;
    ImGui::GetIO().FontDefault = on ? window_.fonts().large : window_.fonts().normal;
}

void AppUi::set_language(Language lang) {
    if (!app::set_language(lang)) message(cjk_missing_message(), true);
}

ViewSettings AppUi::view() const {
    ViewSettings v;
    v.heatmap = kHeatmapIds[static_cast<int>(heatmap_.mode)];
    v.colormap = kColormapIds[static_cast<int>(heatmap_.colormap)];
    v.groups = kGroupPaletteIds[static_cast<int>(current_group_palette())];
    v.compare = compare_on_;
    v.cube = cube_on_;
    v.gradient = gradient_on_;
    if (experiment_) v.experiment = experiment_->id;
    return v;
}

void AppUi::apply_view(const ViewSettings& v) {
    for (int i = 0; i < 4; ++i)
        if (v.heatmap == kHeatmapIds[i]) heatmap_.mode = static_cast<HeatmapMode>(i);
    for (int i = 0; i < 3; ++i)
        if (v.colormap == kColormapIds[i]) heatmap_.colormap = static_cast<Colormap>(i);
    for (int i = 0; i < 2; ++i)
        if (v.groups == kGroupPaletteIds[i]) set_group_palette(static_cast<GroupPalette>(i));
    compare_on_ = v.compare;
    cube_on_ = v.cube;
    gradient_on_ = v.gradient;
}

void AppUi::go_to_step(int lesson, int step) {
    if (lesson < 0 || lesson >= lessons_.count()) return;
    const Lesson& l = lessons_.lessons()[static_cast<std::size_t>(lesson)];
    step = std::clamp(step, 0, static_cast<int>(l.steps.size()) - 1);
    const LessonStep& s = l.steps[static_cast<std::size_t>(step)];
    // The step's tensor, method and view; γ/β, running statistics and selection as the class left them.
    const int from = lessons_.active() && lessons_.lesson_index() == lesson ? lessons_.step() : -1;
    if (from == step && lessons_.error().empty()) return;  // ← on the first step, → on the last: nothing to do
    State next = lesson_step_state(l, from, step, session_.state(), lessons_.memory());
    next.exercise = {};  // a lesson ends a handed-out exercise (replace() below)
    if (!s.view.experiment.empty()) {
        if (!start_experiment(s.view.experiment, next)) {
            lessons_.set_error("step " + std::to_string(step + 1) + ": " + msg_);
            return;
        }
    } else {
        if (auto err = session_.replace(next, TensorChange::from_source())) {
            lessons_.set_error(std::string(tr("This step could not be applied: ")) + *err);
            return;
        }
        experiment_ = nullptr;
    }
    apply_view(s.view);
    lessons_.went_to(lesson, step);
}

bool AppUi::start_experiment(const std::string& id, std::optional<State> state) {
    const Experiment* e = find_experiment(id);
    if (!e) {
        message("unknown experiment '" + id + "'", true);
        return false;
    }
    State st = state ? *state : e->state;
    st.exercise = {};  // an experiment ends a handed-out exercise
    std::optional<std::string> err;
    if (e->kind == ExperimentKind::Pair) {
        err = pair_.start(*e, session_, st);
    } else {
        err = session_.replace(st, TensorChange::from_source());
    }
    if (err) {
        message(*err, true);
        return false;
    }
    experiment_ = e;
    apply_view(e->view);
    return true;
}

void AppUi::stop_experiment() { experiment_ = nullptr; }

void AppUi::edit(const State& next) {
    if (auto err = session_.apply(next, TensorChange::keep())) message(*err, true);
}

void AppUi::set_method(Method m) {
    if (session_.state().spec.method != m) edit(with_method(session_.state(), m, session_.x().shape.c));
}

void AppUi::shortcuts(const std::vector<KeyPress>& keys) {
    if (ImGui::GetIO().WantTextInput) return;  // typed into a text field, not a shortcut
    for (const KeyPress& k : keys) shortcut(k);
}

// One key press, in the order pressed (a press and release within one frame count once).
void AppUi::shortcut(KeyPress k) {
    if (is_modifier(k.key)) return;
    const bool ctrl = (k.mods & GLFW_MOD_CONTROL) != 0, shift = (k.mods & GLFW_MOD_SHIFT) != 0;
    const auto is = [&](int a, int b = -1, int c = -1) { return k.key == a || k.key == b || k.key == c; };
    if (blank_) {  // any key brings the picture back, and does nothing else
        blank_ = false;
        return;
    }
    if (!ctrl && is(GLFW_KEY_B, GLFW_KEY_PERIOD)) blank_ = true;  // a presentation clicker's "blank screen"
    const int digit = k.key >= GLFW_KEY_1 && k.key <= GLFW_KEY_9         ? k.key - GLFW_KEY_1
                      : k.key >= GLFW_KEY_KP_1 && k.key <= GLFW_KEY_KP_9 ? k.key - GLFW_KEY_KP_1
                                                                         : -1;
    if (digit >= 0 && digit < static_cast<int>(methods().size()))  // keys 1–5, in the order of the method table
        set_method(methods()[static_cast<std::size_t>(digit)].id);
    if (lessons_.active()) {  // → ← and a clicker's Page Down / Page Up
        if (is(GLFW_KEY_RIGHT, GLFW_KEY_PAGE_DOWN, GLFW_KEY_SPACE))
            go_to_step(lessons_.lesson_index(), lessons_.step() + 1);
        if (is(GLFW_KEY_LEFT, GLFW_KEY_PAGE_UP, GLFW_KEY_BACKSPACE))
            go_to_step(lessons_.lesson_index(), lessons_.step() - 1);
    }
    if (is(GLFW_KEY_F5) || (!ctrl && is(GLFW_KEY_P))) set_presenter(!presenter_);
    if (is(GLFW_KEY_F1) || (shift && is(GLFW_KEY_SLASH))) help_ = !help_;
    if (!ctrl && is(GLFW_KEY_L)) set_language(language() == Language::En ? Language::Zh : Language::En);
    if (!ctrl && is(GLFW_KEY_C)) compare_on_ = !compare_on_;
    if (!ctrl && is(GLFW_KEY_K)) cube_on_ = !cube_on_;
    if (!ctrl && is(GLFW_KEY_D)) gradient_on_ = !gradient_on_;
    if (!ctrl && is(GLFW_KEY_H)) heatmap_.mode = static_cast<HeatmapMode>((static_cast<int>(heatmap_.mode) + 1) % 4);
    if (is(GLFW_KEY_F12) || (ctrl && is(GLFW_KEY_P))) {
        capture_ =
            CaptureRequest{(std::filesystem::path(export_dir_) / (export_stem(session_) + "-screen.png")).string()};
    }
    if (ctrl && shift && is(GLFW_KEY_C)) copy_scene();
    if (ctrl && shift && is(GLFW_KEY_V)) paste_scene();
    if (ctrl && is(GLFW_KEY_S)) open_save_ = true;
    if (ctrl && is(GLFW_KEY_O)) open_load_ = true;
    if (ctrl && is(GLFW_KEY_E)) export_files();
    if (!ctrl && is(GLFW_KEY_T)) {
        torch_code_ = torch_code(session_.state(), session_.x().shape);
        ImGui::SetClipboardText(torch_code_.c_str());
        torch_open_ = true;
    }
    if (session_.state().spec.method == Method::Group &&
        (is(GLFW_KEY_EQUAL, GLFW_KEY_MINUS) || is(GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT))) {
        const int step = is(GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD) ? 1 : -1;
        if (auto next = with_groups_step(session_.state(), session_.x().shape.c, step)) edit(*next);
    }
    if (session_.state().spec.method == Method::Batch) {
        if (!ctrl && is(GLFW_KEY_N)) {
            if (auto err = session_.train_step()) message(*err, true);
        }
        if (!ctrl && is(GLFW_KEY_E)) edit(toggled_mode(session_.state()));
    }
    if (is(GLFW_KEY_ESCAPE)) {
        if (help_)
            help_ = false;
        else if (torch_open_)
            torch_open_ = false;
        else
            stop_experiment();
    }
}

void AppUi::menu_bar() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu(tr_id("File", "file").c_str())) {
        if (ImGui::MenuItem(tr("Save scene…"), "Ctrl+S")) open_save_ = true;
        if (ImGui::MenuItem(tr("Load scene…"), "Ctrl+O")) open_load_ = true;
        if (ImGui::MenuItem(tr("Copy scene (one line)"), "Ctrl+Shift+C")) copy_scene();
        if (ImGui::MenuItem(tr("Paste scene"), "Ctrl+Shift+V")) paste_scene();
        if (ImGui::MenuItem(tr("Exercise: hide and lock controls…"), nullptr, exercise_open_))
            exercise_open_ = !exercise_open_;
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Export heatmap + histograms (PNG)"))) export_png();
        if (ImGui::MenuItem(tr("Export tensors (.npy), statistics (CSV, JSON)"), "Ctrl+E")) export_files();
        if (ImGui::MenuItem(tr("Screenshot (PNG)"), "F12"))
            capture_ =
                CaptureRequest{(std::filesystem::path(export_dir_) / (export_stem(session_) + "-screen.png")).string()};
        if (ImGui::MenuItem(tr("Copy as PyTorch"), "T")) {
            torch_code_ = torch_code(session_.state(), session_.x().shape);
            ImGui::SetClipboardText(torch_code_.c_str());
            torch_open_ = true;
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr_id("View", "view").c_str())) {
        if (ImGui::MenuItem(tr("Presenter mode"), "F5 / P", presenter_)) set_presenter(!presenter_);
        if (ImGui::MenuItem(tr("Compare BN / LN / IN / GN"), "C", compare_on_)) compare_on_ = !compare_on_;
        if (ImGui::MenuItem(tr("Cube drawing (N, C, H·W)"), "K", cube_on_)) cube_on_ = !cube_on_;
        if (ImGui::MenuItem(tr("Gradient view (backward pass)"), "D", gradient_on_)) gradient_on_ = !gradient_on_;
        ImGui::Separator();
        ImGui::TextDisabled("%s", tr("Value colormap"));
        for (int i = 0; i < 3; ++i)
            if (ImGui::MenuItem(tr(kColormapNames[i]), nullptr, static_cast<int>(heatmap_.colormap) == i))
                heatmap_.colormap = static_cast<Colormap>(i);
        ImGui::TextDisabled("%s", tr("Group colors"));
        for (int i = 0; i < 2; ++i)
            if (ImGui::MenuItem(tr(kGroupPaletteNames[i]), nullptr, static_cast<int>(current_group_palette()) == i))
                set_group_palette(static_cast<GroupPalette>(i));
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Keyboard shortcuts"), "F1", help_)) help_ = !help_;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr_id("Language", "lang").c_str())) {
        if (ImGui::MenuItem("English", "L", language() == Language::En)) set_language(Language::En);
        if (!cjk_font()) ImGui::BeginDisabled();
        if (ImGui::MenuItem("中文 (简体)", "L", language() == Language::Zh)) set_language(Language::Zh);
        if (!cjk_font()) {
            ImGui::EndDisabled();
            ImGui::TextDisabled("%s", cjk_missing_message().c_str());
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr_id("Lessons", "lessons").c_str())) {
        for (int i = 0; i < lessons_.count(); ++i) {
            const Lesson& l = lessons_.lessons()[static_cast<std::size_t>(i)];
            if (ImGui::MenuItem((tr(l.title) + "##" + l.id).c_str(), nullptr, lessons_.lesson_index() == i)) {
                lessons_.close();  // choosing a lesson starts it afresh
                go_to_step(i, 0);
            }
        }
        if (lessons_.active() && ImGui::MenuItem(tr("Close the lesson"))) lessons_.close();
        for (const auto& e : lessons_.load_errors()) ImGui::TextColored(ImVec4(1, 0.5f, 0.45f, 1), "%s", e.c_str());
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr_id("Experiments", "experiments").c_str())) {
        for (const auto& e : experiments())
            if (ImGui::MenuItem((tr(e.title) + "##" + e.id).c_str(), nullptr, experiment_ == &e))
                start_experiment(e.id);
        if (experiment_ && ImGui::MenuItem(tr("Close the experiment"), "Esc")) stop_experiment();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr_id("Help", "help").c_str())) {
        if (ImGui::MenuItem(tr("Keyboard shortcuts"), "F1", help_)) help_ = !help_;
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

// A panel an exercise hides keeps its place and says so (the class is meant to work it out).
bool AppUi::hidden_panel(Control c) const {
    if (!session_.state().exercise.hides(c)) return false;
    ImGui::TextDisabled("%s", tr("(hidden in this exercise)"));
    return true;
}

void AppUi::method_buttons() {
    if (session_.state().exercise.hides(Control::Method)) return;
    const bool locked = session_.state().exercise.locks(Control::Method);
    if (locked) ImGui::BeginDisabled();
    int key = 1;
    for (const MethodInfo& m : methods()) {
        const bool on = session_.state().spec.method == m.id;
        std::string label = std::to_string(key) + " " + m.label;
        if (key++ > 1) same_line_if_fits(ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2);
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.0f, 0.45f, 0.70f, 1));
        if (ImGui::Button(label.c_str())) set_method(m.id);
        if (on) ImGui::PopStyleColor();
    }
    if (locked) ImGui::EndDisabled();
}

void AppUi::experiment_bar() {
    const Experiment& e = *experiment_;
    wrapped_text_colored(ImVec4(0.94f, 0.89f, 0.26f, 1), tr(e.title));
    wrapped_text(tr(e.explanation));
    const State& st = session_.state();
    if (BatchNoisePanel::applies(e, session_)) noise_.draw(session_, e);
    if (e.kind == ExperimentKind::Continuum && st.spec.method == Method::Group) {
        auto ds = divisors(session_.x().shape.c);
        int idx = static_cast<int>(std::find(ds.begin(), ds.end(), st.spec.groups) - ds.begin());
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        std::string label = "G = " + std::to_string(st.spec.groups);
        if (ImGui::SliderInt("##G", &idx, 0, static_cast<int>(ds.size()) - 1, label.c_str()))
            edit(with_groups(st, ds[static_cast<std::size_t>(idx)]));
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr("(divisors of C; keys + and −)"));
        // The identities, checked on the numbers the shaders produced.
        compare_.sync(session_);
        auto max_diff = [](const std::vector<double>& a, const std::vector<double>& b) {
            double m = 0;
            for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
            return a.size() == b.size() ? m : -1.0;
        };
        const NormResult& gr = compare_.session(3).result();
        const Shape4& sh = session_.x().shape;
        if (st.spec.groups == 1 || st.spec.groups == sh.c) {
            const int other = st.spec.groups == 1 ? 1 : 2;
            const NormResult& o = compare_.session(other).result();
            ImGui::Text(tr("G = %lld: statistics equal %s's: max |Δμ| = %.2g, max |Δσ²| = %.2g"),
                        static_cast<long long>(st.spec.groups), other == 1 ? "LayerNorm([C,H,W])" : "InstanceNorm2d",
                        max_diff(gr.mean, o.mean), max_diff(gr.var, o.var));
        } else {
            ImGui::Text(tr("G = %lld: each statistic pools %lld channels × H·W = %lld elements"),
                        static_cast<long long>(st.spec.groups), static_cast<long long>(sh.c / st.spec.groups),
                        static_cast<long long>(session_.layout().count()));
        }
    }
    if (e.kind == ExperimentKind::TrainEval && st.spec.method == Method::Batch) {
        if (ImGui::Button(tr("train step (N)"))) {
            if (auto err = session_.train_step()) message(*err, true);
        }
        ImGui::SameLine();
        if (ImGui::Button(tr("×5"))) {
            for (int i = 0; i < 5; ++i)
                if (auto err = session_.train_step()) message(*err, true);
        }
        ImGui::SameLine();
        if (ImGui::Button(tr("reset"))) {
            if (auto err = session_.reset_running()) message(*err, true);
        }
        ImGui::SameLine();
        int mode = st.spec.mode == Mode::Train ? 0 : 1;
        bool changed = ImGui::RadioButton(tr("train"), &mode, 0);
        ImGui::SameLine();
        changed |= ImGui::RadioButton(tr("eval (E)"), &mode, 1);
        if (changed) edit(with_mode(st, mode == 0 ? Mode::Train : Mode::Eval));
        ImGui::SameLine();
        ImGui::Text(tr("batches tracked: %lld"), static_cast<long long>(st.params.num_batches_tracked));
        const NormResult& r = session_.result();
        const std::size_t C = static_cast<std::size_t>(session_.x().shape.c);
        std::string line;
        for (std::size_t c = 0; c < std::min<std::size_t>(C, 4); ++c) {
            char b[128];
            std::snprintf(b, sizeof b, "c%zu: %s %.3f / %.3f   ", c, tr("running μ/σ²"),
                          st.params.running_mean.empty() ? 0.0 : st.params.running_mean[c],
                          st.params.running_var.empty() ? 1.0 : st.params.running_var[c]);
            line += b;
        }
        ImGui::TextUnformatted(line.c_str());
        ImGui::TextDisabled(tr("now normalizing with: %s"), r.stats_from_running
                                                                ? tr("running statistics (eval)")
                                                                : tr("this batch's statistics (train)"));
    }
}

void AppUi::heatmap_area(float x, float y, float w, float h) {
    std::string title;
    if (compare_on_)
        title = std::string(tr("Compare: the same tensor, four methods (statistics mode)")) + "###heatmap";
    else if (experiment_ && experiment_->kind == ExperimentKind::Pair)
        title = std::string(gradient_on_ ? tr("Side by side: one Jacobian row ∂y_k/∂x each")
                                         : tr("Side by side and difference")) +
                "###heatmap";
    else if (gradient_on_)
        title = std::string(tr("Gradient")) + ": " + method_torch_name(session_.state().spec.method) + "###heatmap";
    else
        title = std::string(tr("Heatmap")) + ": " +
                method_torch_name(session_.state().spec.method, session_.x().shape) + "###heatmap";
    place(title, x, y, w, h);
    heatmap_.show_controls = !presenter_;
    heatmap_.center = presenter_;
    if (presenter_) {  // one row: methods, then the heatmap modes (key H cycles them)
        method_buttons();
        if (!gradient_on_ && !compare_on_ && !(experiment_ && experiment_->kind == ExperimentKind::Pair)) {
            const char* modes[] = {"input x", "output y", "y − x", "statistic groups"};
            int m = static_cast<int>(heatmap_.mode);
            const ImGuiStyle& st = ImGui::GetStyle();
            for (int i = 0; i < 4; ++i) {
                // After the method buttons on their last row when it has room (one row less on 720 lines).
                same_line_if_fits(ImGui::GetFrameHeight() + st.ItemInnerSpacing.x +
                                  ImGui::CalcTextSize(tr(modes[i])).x);
                ImGui::RadioButton(tr(modes[i]), &m, i);
            }
            heatmap_.mode = static_cast<HeatmapMode>(m);
        }
    }
    if (experiment_) {
        experiment_bar();
        ImGui::Separator();
    }
    if (compare_on_) {
        compare_.draw(session_, cube_on_);
    } else if (experiment_ && experiment_->kind == ExperimentKind::Pair) {
        pair_.draw(session_, gradient_on_);
    } else if (gradient_on_) {
        gradient_.draw(session_);
    } else if (cube_on_) {
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        ImGui::BeginChild("heat", ImVec2(avail.x * 0.68f, avail.y), false, ImGuiWindowFlags_NoScrollbar);
        heatmap_.draw(session_);
        ImGui::EndChild();
        ImGui::SameLine();
        draw_partition_cube(session_.layout(), session_.selected_stat(),
                            avail.x * 0.32f - ImGui::GetStyle().ItemSpacing.x, std::min(avail.y, avail.x * 0.32f));
    } else if (session_.result().sync) {  // SyncBN: the heatmap above, the devices and modes below
        // The devices and modes get the height they need to show everything (last frame's
        // figure: it depends on the state and the width only), the heatmap the rest (a third
        // of the room at least: below that, the devices show fewer channels).
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        sync_chrome_ = h - avail.y;
        const float below = sync_need_ > 0 ? sync_need_ : avail.y * 0.6f;
        const float heat = std::floor(std::max(avail.y - below - ImGui::GetStyle().ItemSpacing.y, avail.y / 3));
        ImGui::BeginChild("heat", ImVec2(avail.x, heat), false, ImGuiWindowFlags_NoScrollbar);
        heatmap_.draw(session_);
        ImGui::EndChild();
        ImGui::BeginChild("syncbn", ImVec2(avail.x, 0), false);
        sync_need_ = draw_sync_view(session_, presenter_);
        ImGui::EndChild();
    } else {
        heatmap_.draw(session_);
    }
    ImGui::End();
}

bool AppUi::pictures_shown() const { return PicturePanel::wanted(session_) && !gradient_view_shown(); }

void AppUi::lower_area(float x, float y, float w, float h, bool large, float pic_h) {
    if (pictures_shown()) {  // the pictures across the width, the histograms under them
        if (pic_h <= 0) pic_h = std::floor(h * (large ? 0.5f : 0.55f));  // presenter: the histograms' large text
        place(tr_id("Pictures", "pictures"), x, y, w, pic_h);
        pictures_.draw(session_);
        ImGui::End();
        y += pic_h;
        h -= pic_h;
    }
    place(tr_id("Histograms (GPU)", "histograms"), x, y, w, h);
    if (gradient_view_shown())
        gradient_.draw_histograms(session_, large);
    else
        histograms_.draw(session_, large);
    ImGui::End();
}

void AppUi::layout_normal(float top) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const float status_h = std::max(ImGui::GetFrameHeightWithSpacing() + 6,
                                    ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().WindowPadding.y + 2);
    const float left = std::max(330.0f, d.x * 0.21f), right = std::max(380.0f, d.x * 0.26f);
    const float mid = d.x - left - right, body = d.y - status_h - top;
    const float heat_h = body * (pictures_shown() ? 0.42f : 0.66f);

    place(tr_id("Tensor & method", "controls"), 0, top, left, body);
    controls_.draw(session_);
    ImGui::End();

    heatmap_area(left, top, mid, heat_h);

    lower_area(left, top + heat_h, mid, body - heat_h, false);
    figure_rect_ = {left, top, mid, body};

    float y = top;
    if (lessons_.active() || !lessons_.error().empty()) {
        const float lh = body * 0.34f;
        place(tr_id("Lesson", "lesson"), left + mid, y, right, lh);
        if (auto go = lessons_.draw(false, session_.x(), session_.result())) go_to_step(go->first, go->second);
        ImGui::End();
        y += lh;
    }
    const float explain_h = (top + body - y) * 0.5f;
    place(tr_id("Explain", "explain"), left + mid, y, right, explain_h);
    if (!hidden_panel(Control::Explain)) {
        explain_.draw(session_);
        explain_gradient();
    }
    ImGui::End();
    place(tr_id("Statistics", "stats"), left + mid, y + explain_h, right, top + body - y - explain_h);
    if (!hidden_panel(Control::Statistics)) table_.draw(session_);
    ImGui::End();
    status_bar(top + body, status_h);
}

void AppUi::layout_presenter(float top) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const float status_h = std::max(ImGui::GetFrameHeightWithSpacing() + 6,
                                    ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().WindowPadding.y + 2);
    const float body = d.y - status_h - top;
    const float main_w = std::floor(d.x * 0.64f), side = d.x - main_w;
    // The compare and pair views and the SyncBN devices below the heatmap need most of the height.
    const bool sync_view = session_.result().sync.has_value() && !gradient_on_ && !cube_on_ && !compare_on_;
    const bool wide_views = compare_on_ || (experiment_ && experiment_->kind == ExperimentKind::Pair) || sync_view;
    // The compare view needs the whole height on a projector; the histograms stay in the pair view.
    // SyncBN: the histograms keep the room their captions and numbers need, the devices the rest.
    const float histograms_h = ImGui::GetFrameHeight() + 6.5f * ImGui::GetTextLineHeightWithSpacing();
    float heat_h = compare_on_        ? body
                   : pictures_shown() ? std::floor(body * 0.38f)
                   : sync_view        ? std::floor(std::max(body * 0.6f, body - histograms_h))
                                      : std::floor(body * (wide_views ? 0.70f : 0.64f));
    // SyncBN on a small projector (1280×720): when the devices and a heatmap five lines high do
    // not fit above the histograms, they take the histograms' place instead of scrolling.
    // (sync_need_ is what shows every channel, a function of the state and the width.)
    if (sync_view && sync_need_ > 0 && heat_h - sync_chrome_ - sync_need_ < 5 * ImGui::GetTextLineHeightWithSpacing())
        heat_h = body;
    const bool plain = !wide_views && !gradient_on_ && !cube_on_ && !pictures_shown();  // the heatmap alone
    if (plain) heat_h = presenter_heatmap_height(main_w, body);
    // With pictures: the histograms keep their lines, and the heatmap's tiles and the pictures
    // share the rest equally (each panel's own lines aside).
    const bool pictures = pictures_shown() && !wide_views && !gradient_on_ && !cube_on_;
    float pic_h = 0;
    if (pictures) {
        const float chrome = heat_chrome_ > 0 ? heat_chrome_ : ImGui::GetFontSize() * 6;
        const float pic_chrome = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y +
                                 ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
        const float each =
            std::floor(std::max(2 * ImGui::GetTextLineHeight(), (body - histograms_h - chrome - pic_chrome) / 2));
        heat_h = std::min(body, chrome + each);
        pic_h = std::min(body - heat_h, pic_chrome + each);  // a tiny window: the histograms go first
    }
    heatmap_area(0, top, main_w, heat_h);
    if (plain || pictures) heat_chrome_ = heat_h - heatmap_.image_room_h();
    if (heat_h < body) {
        lower_area(0, top + heat_h, main_w, body - heat_h, true, pic_h);
    }
    figure_rect_ = {0, top, main_w, body};

    float y = top;
    if (lessons_.active() || !lessons_.error().empty()) {
        const float lh = std::floor(body * 0.5f);
        place(tr_id("Lesson", "lesson"), main_w, y, side, lh);
        if (auto go = lessons_.draw(true, session_.x(), session_.result())) go_to_step(go->first, go->second);
        ImGui::End();
        y += lh;
    }
    place(tr_id("Explain", "explain"), main_w, y, side, top + body - y);
    if (!hidden_panel(Control::Explain)) {
        explain_.draw(session_);
        explain_gradient();
    }
    ImGui::End();
    status_bar(top + body, status_h);
}

// The heatmap panel's height in presenter mode: enough for tiles that fill the panel's width
// (the grid's aspect kept), at least half the body, and no more than leaves the histograms
// their lines (title, captions, numbers) and a plot two lines high. The heatmap panel's own
// lines (title, buttons, legend) as measured last frame.
float AppUi::presenter_heatmap_height(float width, float body) const {
    const Shape4& sh = session_.x().shape;
    const float chrome = heat_chrome_ > 0 ? heat_chrome_ : ImGui::GetFontSize() * 6;
    const float inner_w = width - 2 * ImGui::GetStyle().WindowPadding.x;
    const TileLayout wide = TileLayout::fit(sh, inner_w, 1e6f);  // the cells if only the width limited them
    const float need = chrome + static_cast<float>(wide.height) + 2;
    const float histograms = ImGui::GetFrameHeight() + 6.5f * ImGui::GetTextLineHeightWithSpacing();
    return std::floor(std::clamp(need, body * 0.5f, std::max(body * 0.5f, body - histograms)));
}

void AppUi::status_bar(float y, float h) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    place("##status", 0, y, d.x, h, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    const bool recent =
        !msg_.empty() && std::chrono::steady_clock::now() - msg_time_ < std::chrono::seconds(msg_error_ ? 20 : 8);
    if (recent) {
        ImGui::TextColored(msg_error_ ? ImVec4(1, 0.45f, 0.45f, 1) : ImVec4(0.45f, 0.85f, 0.5f, 1), "%s", msg_.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    if (presenter_) {
        ImGui::TextDisabled(tr("F1 help  ·  F5 presenter  ·  1–5 method  ·  ←/→ step  ·  L 中文/English"));
    } else {
        const double err = session_.max_error();
        char err_text[32];
        if (std::isnan(err))
            std::snprintf(err_text, sizeof err_text, "%s", tr("checking…"));
        else
            std::snprintf(err_text, sizeof err_text, "%.2e", err);
        ImGui::Text(tr("device: %s  |  last recompute: GPU %.3f ms, total %.1f ms  |  max |error| vs CPU float64 "
                       "reference: %s  |  %.1f fps  |  F1: shortcuts"),
                    window_.context().device_name().c_str(), session_.result().gpu_ms, session_.recompute_ms(),
                    err_text, frame_ms > 0 ? 1000.0 / frame_ms : 0.0);
        if (!controls_.error().empty()) {
            ImGui::SameLine();
            ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "| %s %s", tr("refused:"), controls_.error().c_str());
        }
    }
    ImGui::End();
}

void AppUi::help_overlay() {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(d.x / 2, d.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.96f);
    bool open = true;
    ImGui::Begin(tr_id("Keyboard shortcuts", "help").c_str(), &open,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    const char* rows[][2] = {{"1 2 3 4 5", "method: BatchNorm, LayerNorm, InstanceNorm, GroupNorm, RMSNorm"},
                             {"→  ←  (Page Down / Page Up, Space)", "next / previous lesson step"},
                             {"B  or  .", "black screen; any key brings the picture back"},
                             {"F5  or  P", "presenter mode on / off"},
                             {"L", "language: English / 中文"},
                             {"C", "compare view: BN, LN, IN, GN side by side"},
                             {"K", "cube drawing of the partition"},
                             {"D", "gradient view (the backward pass)"},
                             {"H", "heatmap: input → output → difference → groups"},
                             {"+  −", "GroupNorm: next / previous G (divisors of C)"},
                             {"N  /  E", "BatchNorm: train step / switch train ↔ eval"},
                             {"T", "copy as PyTorch (clipboard)"},
                             {"F12  or  Ctrl+P", "screenshot (PNG)"},
                             {"Ctrl+S  /  Ctrl+O", "save / load scene"},
                             {"Ctrl+Shift+C  /  V", "copy / paste the scene as one line"},
                             {"Ctrl+E", "export tensors .npy, statistics CSV + JSON"},
                             {"Esc", "close help / experiment"},
                             {"F1", "this help"}};
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        for (auto& r : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(ImVec4(0.94f, 0.89f, 0.26f, 1), "%s", r[0]);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(tr(r[1]));
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled(
        "%s", tr("Mouse: hover an element for its numbers, click to select its group, right click to clear."));
    ImGui::End();
    if (!open) help_ = false;
}

void AppUi::scene_popups() {
    if (open_save_) ImGui::OpenPopup("##save"), open_save_ = false;
    if (open_load_) ImGui::OpenPopup("##load"), open_load_ = false;
    char buf[512];
    for (int which = 0; which < 2; ++which) {
        const char* id = which == 0 ? "##save" : "##load";
        if (!ImGui::BeginPopup(id)) continue;
        ImGui::TextUnformatted(which == 0 ? tr("Save the whole state as a scene file:") : tr("Load a scene file:"));
        std::snprintf(buf, sizeof buf, "%s", scene_path_.c_str());
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter = ImGui::InputText("##path", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
        scene_path_ = buf;
        if (ImGui::Button(which == 0 ? tr("Save") : tr("Load")) || enter) {
            try {
                if (which == 0) {
                    State st = session_.state();
                    st.view_json = view_to_json(view());
                    save_scene(st, scene_path_);
                    message(std::string(tr("saved ")) + scene_path_);
                } else {
                    open_scene(load_scene(scene_path_), scene_path_);
                    message(std::string(tr("loaded ")) + scene_path_);
                }
            } catch (const InputError& e) {
                message(e.what(), true);
            }
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

// A scene loaded or pasted: its state (with its exercise) and its view, or nothing at all.
void AppUi::open_scene(const State& st, const std::string& name) {
    ViewSettings v = parse_view(st.view_json, name);
    if (auto err = session_.replace(st, TensorChange::from_source())) throw InputError(*err);
    experiment_ = nullptr;
    apply_view(v);
}

// The whole state and view as one line of text on the clipboard (scene_to_line).
void AppUi::copy_scene() {
    State st = session_.state();
    st.view_json = view_to_json(view());
    ImGui::SetClipboardText(scene_to_line(st).c_str());
    message(tr("scene copied to the clipboard as one line"));
}

void AppUi::paste_scene() {
    const char* text = ImGui::GetClipboardText();
    try {
        open_scene(scene_from_line(text ? text : "", "pasted scene"), "pasted scene");
        message(tr("scene pasted from the clipboard"));
    } catch (const InputError& e) {
        message(e.what(), true);
    }
}

// The teacher's side of an exercise: which controls the scene hides or locks. Each change
// is an edit of the exercise alone (no lock covers the exercise itself); save or copy the
// scene after.
void AppUi::exercise_window() {
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowSize(ImVec2(em * 26, em * 33), ImGuiCond_Appearing);
    bool open = true;
    if (!ImGui::Begin(tr_id("Exercise: hide and lock controls", "exercise").c_str(), &open)) {
        ImGui::End();
        if (!open) exercise_open_ = false;
        return;
    }
    wrapped_text(
        tr("Hidden controls are not drawn; locked ones are greyed out. Neither can be changed, "
           "by the panels or by the keys. Then save the scene (Ctrl+S) or copy it as one line "
           "(Ctrl+Shift+C) for the class."));
    Exercise ex = session_.state().exercise;
    if (ImGui::BeginTable("controls", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn(tr("control"));
        ImGui::TableSetupColumn(tr("hide"));
        ImGui::TableSetupColumn(tr("lock"));
        ImGui::TableHeadersRow();
        for (int i = 0; i < kControlCount; ++i) {
            const auto c = static_cast<Control>(i);
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(control_name(c));
            ImGui::TableNextColumn();
            bool h = ex.hides(c), l = (ex.locked >> i) & 1u;
            if (ImGui::Checkbox("##h", &h)) ex.hide(c, h);
            ImGui::TableNextColumn();
            if (!is_panel(c) && ImGui::Checkbox("##l", &l)) ex.lock(c, l);
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (ImGui::Button(tr("clear"))) ex = {};
    if (!(ex == session_.state().exercise)) edit(with_exercise(session_.state(), ex));
    ImGui::End();
    if (!open) exercise_open_ = false;
}

void AppUi::torch_window() {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(d.x * 0.5f, d.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(d.x * 0.55f, d.y * 0.5f), ImGuiCond_Appearing);
    ImGui::Begin(tr_id("PyTorch code (copied to the clipboard)", "torch").c_str(), &torch_open_,
                 ImGuiWindowFlags_NoSavedSettings);
    if (ImGui::Button(tr("Copy again"))) ImGui::SetClipboardText(torch_code_.c_str());
    ImGui::Separator();
    ImGui::TextUnformatted(torch_code_.c_str());
    ImGui::End();
}

void AppUi::export_files() {
    try {
        auto files = export_all(session_, export_dir_, export_stem(session_));
        message(std::string(tr("exported ")) + std::to_string(files.size()) + " " + tr("files to") + " " + export_dir_);
    } catch (const InputError& e) {
        message(e.what(), true);
    }
}

void AppUi::export_png() {
    std::error_code ec;
    std::filesystem::create_directories(export_dir_, ec);
    const auto& r = figure_rect_;
    capture_ = CaptureRequest{
        (std::filesystem::path(export_dir_) / (export_stem(session_) + "-figure.png")).string(),
        {static_cast<int>(r[0]), static_cast<int>(r[1]), static_cast<int>(r[2]), static_cast<int>(r[3])}};
}

void AppUi::captured(const std::string& path, const std::string& error) {
    if (error.empty())
        message(std::string(tr("wrote ")) + path);
    else
        message(error, true);
}

void AppUi::draw(const std::vector<KeyPress>& keys) {
    shortcuts(keys);
    if (experiment_ && experiment_->kind == ExperimentKind::Pair) {
        if (auto err = pair_.sync(session_)) message(*err, true);
    }
    // Presenter text: 34 px (times the UI scale) on 1080 lines and more, 26 px from 650 lines,
    // the normal size below (a window too small for larger text).
    const FontSet& f = window_.fonts();
    const float lines = ImGui::GetIO().DisplaySize.y / window_.ui_scale();
    ImGui::PushFont(!presenter_ ? f.normal : lines >= 1000 ? f.large : lines >= 650 ? f.medium : f.normal);
    menu_bar();
    const float top = ImGui::GetFrameHeight();
    if (presenter_)
        layout_presenter(top);
    else
        layout_normal(top);
    scene_popups();
    if (torch_open_) torch_window();
    if (exercise_open_) exercise_window();
    if (help_) help_overlay();
    ImGui::PopFont();
    if (blank_) {  // B or . : a black frame over everything, as presenters expect
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(0, 0), d, IM_COL32(0, 0, 0, 255));
    }
}

std::string AppUi::state_json(int frame) const {
    const bool in_lesson = lessons_.active();
    std::string lesson =
        in_lesson ? lessons_.lessons()[static_cast<std::size_t>(lessons_.lesson_index())].id : std::string();
    nlohmann::json j = {{"method", method_info(session_.state().spec.method).name},
                        {"groups", session_.state().spec.groups},
                        {"mode", mode_name(session_.state().spec.mode)},
                        {"lesson", lesson},
                        {"step", in_lesson ? lessons_.step() + 1 : 0},
                        {"language", language() == Language::Zh ? "zh" : "en"},
                        {"presenter", presenter_},
                        {"compare", compare_on_},
                        {"cube", cube_on_},
                        {"help", help_},
                        {"blank", blank_},
                        {"text_field", ImGui::GetIO().WantTextInput},
                        {"eps", session_.state().spec.effective_eps()},
                        {"hide", session_.state().exercise.hidden_names()},
                        {"lock", session_.state().exercise.locked_names()},
                        {"frame", frame}};
    return j.dump();
}

// The gradient view replaces the heatmap and histograms unless the compare or pair view is up.
bool AppUi::gradient_view_shown() const {
    return gradient_on_ && !compare_on_ && !(experiment_ && experiment_->kind == ExperimentKind::Pair);
}

// The backward formula with the selected element's numbers, under the forward's.
void AppUi::explain_gradient() {
    if (!gradient_view_shown()) return;
    const std::string text = gradient_.explain(session_);
    if (text.empty()) return;
    ImGui::Separator();
    wrapped_text(text);
}

void AppUi::before_pass(vk::CommandBuffer cmd, vk::Extent2D extent) {
    if (gradient_view_shown()) gradient_.before_pass(cmd, extent);
    heatmap_.before_pass(cmd, extent);
    compare_.before_pass(cmd, extent);
    pair_.before_pass(cmd, extent);
}

}  // namespace normlab::app
