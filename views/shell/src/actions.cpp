#include "normlab/views/actions.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/method_buttons.hpp"
#include "normlab/views/torch_window.hpp"
#include "normlab/views/train_runs.hpp"

#include "normlab/session/state_edits.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only (ImGui 1.86 indexes keys by the backend's codes)
#include <imgui.h>

#include <algorithm>
#include <set>
#include <string_view>

namespace normlab::views {

namespace {
using Mod = Chord::Mod;

bool mod_ok(Mod want, bool down) { return want == Mod::Any || (want == Mod::On) == down; }

bool is_modifier(int key) {
    return (key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER) || key == GLFW_KEY_CAPS_LOCK ||
           key == GLFW_KEY_NUM_LOCK || key == GLFW_KEY_SCROLL_LOCK;
}
}  // namespace

Chord plain(int key) { return {key, Mod::Off, Mod::Any}; }
Chord any_mods(int key) { return {key, Mod::Any, Mod::Any}; }
Chord ctrl(int key) { return {key, Mod::On, Mod::Any}; }
Chord ctrl_shift(int key) { return {key, Mod::On, Mod::On}; }
Chord shifted(int key) { return {key, Mod::Any, Mod::On}; }

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

namespace {

using Target = const ActionTarget&;

void edit(Target t, const core::State& next) {
    if (auto err = t.session().apply(next, session::TensorChange::keep())) t.refused(*err);
}
bool is_group(Target t) { return t.session().state().spec.method == core::Method::Group; }
bool is_batch(Target t) { return t.session().state().spec.method == core::Method::Batch; }

// One row of the shared table: an Action with its enabled / checked / run as functions of the
// app's ActionTarget. A row with id "file" stands for the app's own File menu rows.
struct ActionRow {
    const char* id = "";
    std::vector<Chord> keys;
    unsigned menus = kNoMenu;
    const char* menu_label = nullptr;
    const char* shortcut = nullptr;
    const char* help_keys = nullptr;
    const char* help_text = nullptr;
    bool (*enabled)(Target) = nullptr;
    bool (*checked)(Target) = nullptr;
    void (*run)(Target, int) = nullptr;
};

// The rows both apps have, in the help overlay's order.
const std::vector<ActionRow>& shared_rows() {
    static const std::vector<ActionRow> rows{
        {.id = "method",  // keys 1–5, in the order of the method table
         .keys = {any_mods(GLFW_KEY_1), any_mods(GLFW_KEY_2), any_mods(GLFW_KEY_3), any_mods(GLFW_KEY_4),
                  any_mods(GLFW_KEY_5), any_mods(GLFW_KEY_KP_1), any_mods(GLFW_KEY_KP_2), any_mods(GLFW_KEY_KP_3),
                  any_mods(GLFW_KEY_KP_4), any_mods(GLFW_KEY_KP_5)},
         .help_keys = "1 2 3 4 5",
         .help_text = "method: BatchNorm, LayerNorm, InstanceNorm, GroupNorm, RMSNorm",
         .run =
             [](Target t, int i) {
                 const auto k = static_cast<std::size_t>(i % 5);
                 if (k < core::methods().size())
                     if (auto err = set_method(t.session(), core::methods()[k].id)) t.refused(*err);
             }},
        {.id = "step",  // → ← and a clicker's Page Down / Page Up
         .keys = {any_mods(GLFW_KEY_RIGHT), any_mods(GLFW_KEY_PAGE_DOWN), any_mods(GLFW_KEY_SPACE),
                  any_mods(GLFW_KEY_LEFT), any_mods(GLFW_KEY_PAGE_UP), any_mods(GLFW_KEY_BACKSPACE)},
         .help_keys = "→  ←  (Page Down / Page Up, Space)",
         .help_text = "next / previous lesson step",
         .enabled = [](Target t) { return t.lessons->active(); },
         .run = [](Target t, int i) { t.go_to_step(t.lessons->lesson_index(), t.lessons->step() + (i < 3 ? 1 : -1)); }},
        {.id = "blank",  // a presentation clicker's "blank screen"
         .keys = {plain(GLFW_KEY_B), plain(GLFW_KEY_PERIOD)},
         .help_keys = "B  or  .",
         .help_text = "black screen; any key brings the picture back",
         .run = [](Target t, int) { *t.blank = true; }},
        {.id = "presenter",
         .keys = {any_mods(GLFW_KEY_F5), plain(GLFW_KEY_P)},
         .menus = kViewMenu,
         .menu_label = "Presenter mode",
         .shortcut = "F5 / P",
         .help_keys = "F5  or  P",
         .help_text = "presenter mode on / off",
         .checked = [](Target t) { return *t.presenter; },
         .run = [](Target t, int) { t.set_presenter(!*t.presenter); }},
        {.id = "language",  // the Language menu lists both languages
         .keys = {plain(GLFW_KEY_L)},
         .help_keys = "L",
         .help_text = "language: English / Chinese",  // no CJK glyph: the font may come later
         .run =
             [](Target t, int) {
                 t.set_language(language() == core::Language::En ? core::Language::Zh : core::Language::En);
             }},
        {.id = "compare",
         .keys = {plain(GLFW_KEY_C)},
         .menus = kViewMenu,
         .menu_label = "Compare BN / LN / IN / GN",
         .shortcut = "C",
         .help_keys = "C",
         .help_text = "compare view: BN, LN, IN, GN side by side",
         .checked = [](Target t) { return t.views->compare; },
         .run = [](Target t, int) { t.views->compare = !t.views->compare; }},
        {.id = "cube",
         .keys = {plain(GLFW_KEY_K)},
         .menus = kViewMenu,
         .menu_label = "Cube drawing (N, C, H·W)",
         .shortcut = "K",
         .help_keys = "K",
         .help_text = "cube drawing of the partition",
         .checked = [](Target t) { return t.views->cube; },
         .run = [](Target t, int) { t.views->cube = !t.views->cube; }},
        {.id = "gradient",
         .keys = {plain(GLFW_KEY_D)},
         .menus = kViewMenu,
         .menu_label = "Gradient view (backward pass)",
         .shortcut = "D",
         .help_keys = "D",
         .help_text = "gradient view (the backward pass)",
         .checked = [](Target t) { return t.views->gradient; },
         .run = [](Target t, int) { t.views->gradient = !t.views->gradient; }},
        {.id = "train",
         .keys = {plain(GLFW_KEY_R)},
         .menus = kViewMenu,
         .menu_label = "Train view (small networks)",
         .shortcut = "R",
         .help_keys = "R",
         .help_text = "Train view: small networks trained side by side",
         .checked = [](Target t) { return *t.train; },
         .run = [](Target t, int) { *t.train = !*t.train; }},
        {.id = "train_play",
         .keys = {plain(GLFW_KEY_ENTER), plain(GLFW_KEY_KP_ENTER)},
         .help_keys = "Enter",
         .help_text = "Train view: play / pause",
         .enabled =
             [](Target t) {
                 return *t.train && t.train_runs && !t.train_runs->runs().empty() && !t.train_runs->done();
             },
         .run = [](Target t, int) { t.train_runs->play(!t.train_runs->playing()); }},
        {.id = "heatmap",
         .keys = {plain(GLFW_KEY_H)},
         .help_keys = "H",
         .help_text = "heatmap: input → output → difference → groups",
         .run =
             [](Target t, int) {
                 t.heatmap->mode = static_cast<plan::HeatmapMode>((static_cast<int>(t.heatmap->mode) + 1) % 4);
             }},
        {.id = "groups",  // + and − (= and -, or the keypad's)
         .keys = {any_mods(GLFW_KEY_EQUAL), any_mods(GLFW_KEY_KP_ADD), any_mods(GLFW_KEY_MINUS),
                  any_mods(GLFW_KEY_KP_SUBTRACT)},
         .help_keys = "+  −",
         .help_text = "GroupNorm: next / previous G (divisors of C)",
         .enabled = is_group,
         .run =
             [](Target t, int i) {
                 const session::Session& s = t.session();
                 if (auto next = session::with_groups_step(s.state(), s.x().shape.c, i < 2 ? 1 : -1)) edit(t, *next);
             }},
        {.id = "batch",
         .keys = {plain(GLFW_KEY_N), plain(GLFW_KEY_E)},
         .help_keys = "N  /  E",
         .help_text = "BatchNorm: train step / switch train ↔ eval",
         .enabled = is_batch,
         .run =
             [](Target t, int i) {
                 if (i == 1) return edit(t, session::toggled_mode(t.session().state()));
                 if (auto err = t.session().train_step()) t.refused(*err);
             }},
        {.id = "file"},  // the app's File menu rows
        {.id = "torch",
         .keys = {plain(GLFW_KEY_T)},
         .menus = kFileMenu,
         .menu_label = "Copy as PyTorch",
         .shortcut = "T",
         .help_keys = "T",
         .help_text = "copy as PyTorch (clipboard)",
         .run =
             [](Target t, int) {
                 *t.torch_code = copy_torch_code(t.session());
                 *t.torch_open = true;
             }},
        {.id = "close",
         .keys = {any_mods(GLFW_KEY_ESCAPE)},
         .help_keys = "Esc",
         .help_text = "close help / experiment",
         .run =
             [](Target t, int) {
                 if (*t.help)
                     *t.help = false;
                 else if (*t.torch_open)
                     *t.torch_open = false;
                 else
                     t.stop_experiment();
             }},
        {.id = "help",
         .keys = {any_mods(GLFW_KEY_F1), shifted(GLFW_KEY_SLASH)},
         .menus = kHelpMenu,
         .menu_label = "Keyboard shortcuts",
         .shortcut = "F1",
         .help_keys = "F1",
         .help_text = "this help",
         .checked = [](Target t) { return *t.help; },
         .run = [](Target t, int) { *t.help = !*t.help; }},
    };
    return rows;
}

// A key's name as the help shows it (letters, digits, F1–F25); "?" for others.
std::string key_name(int key) {
    if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return std::string(1, static_cast<char>('A' + key - GLFW_KEY_A));
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return std::string(1, static_cast<char>('0' + key - GLFW_KEY_0));
    if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25) return "F" + std::to_string(key - GLFW_KEY_F1 + 1);
    return "?";
}

// A label made at run time, kept for the program's life (Action's labels are C strings).
const char* kept(const std::string& s) {
    static std::set<std::string> labels;
    return labels.insert(s).first->c_str();
}

// `a` without the chords of `host_keys`; when it lost one, its labels name the keys it keeps.
void without_host_keys(Action& a, const std::vector<int>& host_keys) {
    const auto host = [&](const Chord& c) {
        return std::find(host_keys.begin(), host_keys.end(), c.key) != host_keys.end();
    };
    if (std::none_of(a.keys.begin(), a.keys.end(), host)) return;
    std::erase_if(a.keys, host);
    std::string shortcut, help;
    for (const Chord& c : a.keys) {
        shortcut += (shortcut.empty() ? "" : " / ") + key_name(c.key);
        help += (help.empty() ? "" : "  or  ") + key_name(c.key);
    }
    if (a.shortcut) a.shortcut = kept(shortcut);
    if (a.help_keys) a.help_keys = kept(help);
}

// `row` acting on `t`.
Action bound(const ActionRow& row, const ActionTarget& t) {
    Action a{.id = row.id,
             .keys = row.keys,
             .menus = row.menus,
             .menu_label = row.menu_label,
             .shortcut = row.shortcut,
             .help_keys = row.help_keys,
             .help_text = row.help_text};
    if (row.enabled) a.enabled = [t, f = row.enabled] { return f(t); };
    if (row.checked) a.checked = [t, f = row.checked] { return f(t); };
    a.run = [t, f = row.run](int chord) { f(t, chord); };
    return a;
}

}  // namespace

std::vector<Action> app_actions(const ActionTarget& t, std::vector<Action> file_rows,
                                const std::vector<int>& host_keys) {
    std::vector<Action> rows;
    for (const ActionRow& r : shared_rows()) {
        if (std::string_view(r.id) == "file")
            for (Action& a : file_rows) rows.push_back(std::move(a));
        else
            rows.push_back(bound(r, t));
    }
    for (Action& a : rows) without_host_keys(a, host_keys);
    return rows;
}

void run_shortcuts(const std::vector<Action>& table, const std::vector<KeyPress>& keys, bool& blank) {
    if (ImGui::GetIO().WantTextInput) return;  // typed into a text field, not a shortcut
    for (const KeyPress& k : keys) {           // in the order pressed (a press and release within one frame count once)
        if (is_modifier(k.key)) continue;
        if (blank) {  // any key brings the picture back, and does nothing else
            blank = false;
            continue;
        }
        int chord = -1;
        if (const Action* a = find_action(table, k.key, k.mods, chord)) a->run(chord);
    }
}

void menu_items(const std::vector<Action>& table, unsigned menu) {
    for (const Action& a : table) {
        if (!(a.menus & menu)) continue;
        if (a.separator_before) ImGui::Separator();
        const bool on = a.checked && a.checked();
        if (ImGui::MenuItem(tr(a.menu_label), a.shortcut, on, !a.enabled || a.enabled())) a.run(-1);
    }
}

void help_overlay(const std::vector<Action>& table, bool& open) {
    if (!open) return;
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(d.x / 2, d.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.96f);
    ImGui::Begin(tr_id("Keyboard shortcuts", "help").c_str(), &open,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        for (const Action& a : table) {
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
}

void blank_screen(bool blank) {
    if (!blank) return;  // B or . : a black frame over everything, as presenters expect
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(0, 0), d, IM_COL32(0, 0, 0, 255));
}

}  // namespace normlab::views
