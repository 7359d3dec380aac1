// Actions: the one table of what the keys, the menus and the F1 help can do. Each row has an
// id, its key chords, where it appears in the menu bar, its row in the help overlay, when it is
// enabled or checked, and what it runs; the key handling, the menu items and the help overlay are
// generated from it, so the three cannot drift apart. The rows both apps have (the desktop's AppUi
// and the browser's WebApp) are data, a table in actions.cpp whose functions take an ActionTarget
// (each app's own state); app_actions() binds them to one, with the app's File menu rows. GLFW key
// codes: compiled by the app and the browser shell only.
#pragma once
#include "normlab/views/heatmap_panel.hpp"
#include "normlab/views/key_queue.hpp"
#include "normlab/views/lesson_panel.hpp"
#include "normlab/views/shown_views.hpp"

#include "normlab/session/session.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace normlab::views {

// A key (GLFW key code) and the modifiers it needs: Ctrl and Shift each required, refused or
// ignored.
struct Chord {
    enum class Mod : std::uint8_t { Off, On, Any };
    int key = 0;
    Mod ctrl = Mod::Off;
    Mod shift = Mod::Any;

    bool matches(int pressed, int mods) const;  // mods: GLFW_MOD_* bits
};

enum MenuBits : unsigned { kNoMenu = 0, kFileMenu = 1u << 0, kViewMenu = 1u << 1, kHelpMenu = 1u << 2 };

struct Action {
    const char* id = "";
    std::vector<Chord> keys;           // none: the menu only
    unsigned menus = kNoMenu;          // the menus it appears in
    const char* menu_label = nullptr;  // translated with tr()
    const char* shortcut = nullptr;    // shown beside the menu item, e.g. "F5 / P"
    bool separator_before = false;     // in the menu
    const char* help_keys = nullptr;   // the help overlay's row (nullptr: no row of its own) …
    const char* help_text = nullptr;   // … and what the keys do (translated with tr())
    std::function<bool()> enabled;     // empty: always
    std::function<bool()> checked;     // empty: not a toggle
    std::function<void(int)> run;      // the index of the chord pressed; -1 from the menu
};

// The first enabled action with a chord that matches the key press (its index in `chord`);
// nullptr when none does.
const Action* find_action(const std::vector<Action>& table, int key, int mods, int& chord);

Chord plain(int key);       // the key, without Ctrl
Chord any_mods(int key);    // the key, whatever is held
Chord ctrl(int key);        // Ctrl+key
Chord ctrl_shift(int key);  // Ctrl+Shift+key
Chord shifted(int key);     // Shift+key (? on US layouts)

class TrainRunSet;

// What the shared actions act on: an app's own state (pointers to its members) and its own ways
// to change it.
struct ActionTarget {
    std::function<session::Session&()> session;
    HeatmapPanel* heatmap = nullptr;
    ShownViews* views = nullptr;
    LessonPanel* lessons = nullptr;
    bool *presenter = nullptr, *help = nullptr, *blank = nullptr, *torch_open = nullptr;
    std::string* torch_code = nullptr;
    bool* train = nullptr;              // the Train view shown
    TrainRunSet* train_runs = nullptr;  // its runs (Enter plays and pauses them)
    std::function<void(bool)> set_presenter;
    std::function<void(core::Language)> set_language;
    std::function<void(int, int)> go_to_step;
    std::function<void()> stop_experiment;
    std::function<void(const std::string&)> refused;  // an edit's refusal, as the status line's error
};

// The shared table's rows bound to `t`, in the help overlay's order, with `file_rows` (an app's File
// menu) before T, Esc and F1. No row takes a key of `host_keys` (the browser's own, F5): a row that
// loses one names only the keys it keeps, beside its menu item and in the help overlay.
std::vector<Action> app_actions(const ActionTarget& t, std::vector<Action> file_rows,
                                const std::vector<int>& host_keys = {});

// The key presses of one frame, in order (none while a text field has the keyboard); with `blank`
// set, a key only brings the picture back.
void run_shortcuts(const std::vector<Action>& table, const std::vector<KeyPress>& keys, bool& blank);
// The actions of one menu (MenuBits), in table order, inside an open menu.
void menu_items(const std::vector<Action>& table, unsigned menu);
// The F1 overlay (while `open`): every row with help keys; the blank screen (while `blank`).
void help_overlay(const std::vector<Action>& table, bool& open);
void blank_screen(bool blank);

}  // namespace normlab::views
