// The desktop's File menu rows of the shell's action table (normlab/views/actions.hpp): scene files, the
// one-line scene on the clipboard, the exercise window, exports and screenshots.
#include "normlab/views/actions.hpp"
#include "app_ui.hpp"
#include "exporter.hpp"
#include "normlab/views/i18n.hpp"

#include "normlab/session/state_edits.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only (ImGui 1.86 indexes keys by the backend's codes)

#include <filesystem>

namespace normlab::app {

// The File menu's actions, in its order.
std::vector<views::Action> AppUi::file_actions(views::Shell& shell) {
    std::vector<views::Action> t;
    t.push_back({.id = "save",
                 .keys = {views::ctrl(GLFW_KEY_S)},
                 .menus = views::kFileMenu,
                 .menu_label = "Save scene…",
                 .shortcut = "Ctrl+S",
                 .help_keys = "Ctrl+S  /  Ctrl+O",
                 .help_text = "save / load scene",
                 .run = [this](int) { open_save_ = true; }});
    t.push_back({.id = "load",
                 .keys = {views::ctrl(GLFW_KEY_O)},
                 .menus = views::kFileMenu,
                 .menu_label = "Load scene…",
                 .shortcut = "Ctrl+O",
                 .run = [this](int) { open_load_ = true; }});
    t.push_back({.id = "copy-scene",
                 .keys = {views::ctrl_shift(GLFW_KEY_C)},
                 .menus = views::kFileMenu,
                 .menu_label = "Copy scene (one line)",
                 .shortcut = "Ctrl+Shift+C",
                 .help_keys = "Ctrl+Shift+C  /  V",
                 .help_text = "copy / paste the scene as one line",
                 .run = [this](int) { copy_scene(); }});
    t.push_back({.id = "paste-scene",
                 .keys = {views::ctrl_shift(GLFW_KEY_V)},
                 .menus = views::kFileMenu,
                 .menu_label = "Paste scene",
                 .shortcut = "Ctrl+Shift+V",
                 .run = [this](int) { paste_scene(); }});
    t.push_back({.id = "exercise",
                 .menus = views::kFileMenu,
                 .menu_label = "Exercise: hide and lock controls…",
                 .checked = [&shell] { return shell.exercise_open(); },
                 .run = [&shell](int) { shell.exercise_open() = !shell.exercise_open(); }});
    t.push_back({.id = "export-png",
                 .menus = views::kFileMenu,
                 .menu_label = "Export heatmap + histograms (PNG)",
                 .separator_before = true,
                 .run = [this](int) { export_png(); }});
    t.push_back({.id = "export",
                 .keys = {views::ctrl(GLFW_KEY_E)},
                 .menus = views::kFileMenu,
                 .menu_label = "Export tensors (.npy), statistics (CSV, JSON)",
                 .shortcut = "Ctrl+E",
                 .help_keys = "Ctrl+E",
                 .help_text = "export tensors .npy, statistics CSV + JSON",
                 .run = [this](int) { export_files(); }});
    t.push_back({.id = "screenshot",
                 .keys = {views::any_mods(GLFW_KEY_F12), views::ctrl(GLFW_KEY_P)},
                 .menus = views::kFileMenu,
                 .menu_label = "Screenshot (PNG)",
                 .shortcut = "F12",
                 .help_keys = "F12  or  Ctrl+P",
                 .help_text = "screenshot (PNG)",
                 .run = [this](int) {
                     capture_ = CaptureRequest{
                         (std::filesystem::path(export_dir_) / (export_stem(session_) + "-screen.png")).string()};
                 }});

    return t;
}

}  // namespace normlab::app
