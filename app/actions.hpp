// Actions: the one table of what the keys, the menus and the F1 help can do. Each row has an
// id, its key chords, where it appears in the menu bar, its row in the help overlay, when it is
// enabled or checked, and what it runs; AppUi generates the key handling, the menu items and
// the help overlay from it, so the three cannot drift apart.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace normlab::app {

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

}  // namespace normlab::app
