// AppUi's action table (actions.hpp) and what is generated from it: the keyboard shortcuts,
// the menu bar's action items and the F1 help overlay.
#include "actions.hpp"
#include "app_ui.hpp"
#include "exporter.hpp"
#include "i18n.hpp"

#include "normlab/state_edits.hpp"
#include "normlab/torch_code.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only (ImGui 1.86 indexes keys by the backend's codes)

#include <filesystem>

namespace normlab::app {

namespace {
using Mod = Chord::Mod;

bool mod_ok(Mod want, bool down) { return want == Mod::Any || (want == Mod::On) == down; }

bool is_modifier(int key) {
    return (key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER) || key == GLFW_KEY_CAPS_LOCK ||
           key == GLFW_KEY_NUM_LOCK || key == GLFW_KEY_SCROLL_LOCK;
}

Chord plain(int key) { return {key, Mod::Off, Mod::Any}; }     // the key, without Ctrl
Chord any(int key) { return {key, Mod::Any, Mod::Any}; }       // the key, whatever is held
Chord ctrl(int key) { return {key, Mod::On, Mod::Any}; }       // Ctrl+key
Chord ctrl_shift(int key) { return {key, Mod::On, Mod::On}; }  // Ctrl+Shift+key
Chord shifted(int key) { return {key, Mod::Any, Mod::On}; }    // Shift+key (? on US layouts)
}  // namespace

bool Chord::matches(int pressed, int mods) const {
    return pressed == key && mod_ok(ctrl, (mods & GLFW_MOD_CONTROL) != 0) &&
           mod_ok(shift, (mods & GLFW_MOD_SHIFT) != 0);
}

const Action* find_action(const std::vector<Action>& table, int key, int mods, int& chord) {
    for (const Action& a : table) {
        if (a.enabled && !a.enabled()) continue;
        for (std::size_t i = 0; i < a.keys.size(); ++i)
            if (a.keys[i].matches(key, mods)) {
                chord = static_cast<int>(i);
                return &a;
            }
    }
    return nullptr;
}

std::vector<Action> AppUi::make_actions() {
    const auto toggle = [](bool& flag) { return [&flag](int) { flag = !flag; }; };
    const auto is = [](const bool& flag) { return [&flag] { return flag; }; };
    const auto method_is = [this](Method m) { return [this, m] { return session_.state().spec.method == m; }; };
    std::vector<Action> t;
    t.push_back(
        {.id = "method",  // keys 1–5, in the order of the method table
         .keys = {any(GLFW_KEY_1), any(GLFW_KEY_2), any(GLFW_KEY_3), any(GLFW_KEY_4), any(GLFW_KEY_5),
                  any(GLFW_KEY_KP_1), any(GLFW_KEY_KP_2), any(GLFW_KEY_KP_3), any(GLFW_KEY_KP_4), any(GLFW_KEY_KP_5)},
         .help_keys = "1 2 3 4 5",
         .help_text = "method: BatchNorm, LayerNorm, InstanceNorm, GroupNorm, RMSNorm",
         .run = [this](int i) {
             const auto k = static_cast<std::size_t>(i % 5);
             if (k < methods().size()) set_method(methods()[k].id);
         }});
    t.push_back({.id = "step",  // → ← and a clicker's Page Down / Page Up
                 .keys = {any(GLFW_KEY_RIGHT), any(GLFW_KEY_PAGE_DOWN), any(GLFW_KEY_SPACE), any(GLFW_KEY_LEFT),
                          any(GLFW_KEY_PAGE_UP), any(GLFW_KEY_BACKSPACE)},
                 .help_keys = "→  ←  (Page Down / Page Up, Space)",
                 .help_text = "next / previous lesson step",
                 .enabled = [this] { return lessons_.active(); },
                 .run = [this](int i) { go_to_step(lessons_.lesson_index(), lessons_.step() + (i < 3 ? 1 : -1)); }});
    t.push_back({.id = "blank",  // a presentation clicker's "blank screen"
                 .keys = {plain(GLFW_KEY_B), plain(GLFW_KEY_PERIOD)},
                 .help_keys = "B  or  .",
                 .help_text = "black screen; any key brings the picture back",
                 .run = [this](int) { blank_ = true; }});
    t.push_back({.id = "presenter",
                 .keys = {any(GLFW_KEY_F5), plain(GLFW_KEY_P)},
                 .menus = kViewMenu,
                 .menu_label = "Presenter mode",
                 .shortcut = "F5 / P",
                 .help_keys = "F5  or  P",
                 .help_text = "presenter mode on / off",
                 .checked = is(presenter_),
                 .run = [this](int) { set_presenter(!presenter_); }});
    t.push_back({.id = "language",  // the Language menu lists both languages
                 .keys = {plain(GLFW_KEY_L)},
                 .help_keys = "L",
                 .help_text = "language: English / 中文",
                 .run = [this](int) { set_language(language() == Language::En ? Language::Zh : Language::En); }});
    t.push_back({.id = "compare",
                 .keys = {plain(GLFW_KEY_C)},
                 .menus = kViewMenu,
                 .menu_label = "Compare BN / LN / IN / GN",
                 .shortcut = "C",
                 .help_keys = "C",
                 .help_text = "compare view: BN, LN, IN, GN side by side",
                 .checked = is(views_.compare),
                 .run = toggle(views_.compare)});
    t.push_back({.id = "cube",
                 .keys = {plain(GLFW_KEY_K)},
                 .menus = kViewMenu,
                 .menu_label = "Cube drawing (N, C, H·W)",
                 .shortcut = "K",
                 .help_keys = "K",
                 .help_text = "cube drawing of the partition",
                 .checked = is(views_.cube),
                 .run = toggle(views_.cube)});
    t.push_back({.id = "gradient",
                 .keys = {plain(GLFW_KEY_D)},
                 .menus = kViewMenu,
                 .menu_label = "Gradient view (backward pass)",
                 .shortcut = "D",
                 .help_keys = "D",
                 .help_text = "gradient view (the backward pass)",
                 .checked = is(views_.gradient),
                 .run = toggle(views_.gradient)});
    t.push_back(
        {.id = "heatmap",
         .keys = {plain(GLFW_KEY_H)},
         .help_keys = "H",
         .help_text = "heatmap: input → output → difference → groups",
         .run = [this](int) { heatmap_.mode = static_cast<HeatmapMode>((static_cast<int>(heatmap_.mode) + 1) % 4); }});
    t.push_back({.id = "groups",  // + and − (= and -, or the keypad's)
                 .keys = {any(GLFW_KEY_EQUAL), any(GLFW_KEY_KP_ADD), any(GLFW_KEY_MINUS), any(GLFW_KEY_KP_SUBTRACT)},
                 .help_keys = "+  −",
                 .help_text = "GroupNorm: next / previous G (divisors of C)",
                 .enabled = method_is(Method::Group),
                 .run = [this](int i) {
                     if (auto next = with_groups_step(session_.state(), session_.x().shape.c, i < 2 ? 1 : -1))
                         edit(*next);
                 }});
    t.push_back({.id = "batch",
                 .keys = {plain(GLFW_KEY_N), plain(GLFW_KEY_E)},
                 .help_keys = "N  /  E",
                 .help_text = "BatchNorm: train step / switch train ↔ eval",
                 .enabled = method_is(Method::Batch),
                 .run = [this](int i) {
                     if (i == 1) return edit(toggled_mode(session_.state()));
                     if (auto err = session_.train_step()) message(*err, true);
                 }});
    file_actions(t);
    t.push_back({.id = "close",
                 .keys = {any(GLFW_KEY_ESCAPE)},
                 .help_keys = "Esc",
                 .help_text = "close help / experiment",
                 .run = [this](int) {
                     if (help_)
                         help_ = false;
                     else if (torch_open_)
                         torch_open_ = false;
                     else
                         stop_experiment();
                 }});
    t.push_back({.id = "help",
                 .keys = {any(GLFW_KEY_F1), shifted(GLFW_KEY_SLASH)},
                 .menus = kHelpMenu,
                 .menu_label = "Keyboard shortcuts",
                 .shortcut = "F1",
                 .help_keys = "F1",
                 .help_text = "this help",
                 .checked = is(help_),
                 .run = toggle(help_)});
    return t;
}

// The File menu's actions, in its order.
void AppUi::file_actions(std::vector<Action>& t) {
    t.push_back({.id = "save",
                 .keys = {ctrl(GLFW_KEY_S)},
                 .menus = kFileMenu,
                 .menu_label = "Save scene…",
                 .shortcut = "Ctrl+S",
                 .help_keys = "Ctrl+S  /  Ctrl+O",
                 .help_text = "save / load scene",
                 .run = [this](int) { open_save_ = true; }});
    t.push_back({.id = "load",
                 .keys = {ctrl(GLFW_KEY_O)},
                 .menus = kFileMenu,
                 .menu_label = "Load scene…",
                 .shortcut = "Ctrl+O",
                 .run = [this](int) { open_load_ = true; }});
    t.push_back({.id = "copy-scene",
                 .keys = {ctrl_shift(GLFW_KEY_C)},
                 .menus = kFileMenu,
                 .menu_label = "Copy scene (one line)",
                 .shortcut = "Ctrl+Shift+C",
                 .help_keys = "Ctrl+Shift+C  /  V",
                 .help_text = "copy / paste the scene as one line",
                 .run = [this](int) { copy_scene(); }});
    t.push_back({.id = "paste-scene",
                 .keys = {ctrl_shift(GLFW_KEY_V)},
                 .menus = kFileMenu,
                 .menu_label = "Paste scene",
                 .shortcut = "Ctrl+Shift+V",
                 .run = [this](int) { paste_scene(); }});
    t.push_back({.id = "exercise",
                 .menus = kFileMenu,
                 .menu_label = "Exercise: hide and lock controls…",
                 .checked = [this] { return exercise_open_; },
                 .run = [this](int) { exercise_open_ = !exercise_open_; }});
    t.push_back({.id = "export-png",
                 .menus = kFileMenu,
                 .menu_label = "Export heatmap + histograms (PNG)",
                 .separator_before = true,
                 .run = [this](int) { export_png(); }});
    t.push_back({.id = "export",
                 .keys = {ctrl(GLFW_KEY_E)},
                 .menus = kFileMenu,
                 .menu_label = "Export tensors (.npy), statistics (CSV, JSON)",
                 .shortcut = "Ctrl+E",
                 .help_keys = "Ctrl+E",
                 .help_text = "export tensors .npy, statistics CSV + JSON",
                 .run = [this](int) { export_files(); }});
    t.push_back({.id = "screenshot",
                 .keys = {any(GLFW_KEY_F12), ctrl(GLFW_KEY_P)},
                 .menus = kFileMenu,
                 .menu_label = "Screenshot (PNG)",
                 .shortcut = "F12",
                 .help_keys = "F12  or  Ctrl+P",
                 .help_text = "screenshot (PNG)",
                 .run = [this](int) {
                     capture_ = CaptureRequest{
                         (std::filesystem::path(export_dir_) / (export_stem(session_) + "-screen.png")).string()};
                 }});
    t.push_back({.id = "torch",
                 .keys = {plain(GLFW_KEY_T)},
                 .menus = kFileMenu,
                 .menu_label = "Copy as PyTorch",
                 .shortcut = "T",
                 .help_keys = "T",
                 .help_text = "copy as PyTorch (clipboard)",
                 .run = [this](int) {
                     torch_code_ = copy_torch_code(session_);
                     torch_open_ = true;
                 }});
}

void AppUi::shortcuts(const std::vector<KeyPress>& keys) {
    if (ImGui::GetIO().WantTextInput) return;  // typed into a text field, not a shortcut
    for (const KeyPress& k : keys) shortcut(k);
}

// One key press, in the order pressed (a press and release within one frame count once).
void AppUi::shortcut(KeyPress k) {
    if (is_modifier(k.key)) return;
    if (blank_) {  // any key brings the picture back, and does nothing else
        blank_ = false;
        return;
    }
    int chord = -1;
    if (const Action* a = find_action(actions_, k.key, k.mods, chord)) a->run(chord);
}

void AppUi::menu_items(unsigned menu) {
    for (const Action& a : actions_) {
        if (!(a.menus & menu)) continue;
        if (a.separator_before) ImGui::Separator();
        const bool on = a.checked && a.checked();
        if (ImGui::MenuItem(tr(a.menu_label), a.shortcut, on, !a.enabled || a.enabled())) a.run(-1);
    }
}

void AppUi::help_overlay() {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(d.x / 2, d.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.96f);
    bool open = true;
    ImGui::Begin(tr_id("Keyboard shortcuts", "help").c_str(), &open,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        for (const Action& a : actions_) {
            if (!a.help_keys) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(ImVec4(0.94f, 0.89f, 0.26f, 1), "%s", a.help_keys);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(tr(a.help_text));
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled(
        "%s", tr("Mouse: hover an element for its numbers, click to select its group, right click to clear."));
    ImGui::End();
    if (!open) help_ = false;
}

}  // namespace normlab::app
