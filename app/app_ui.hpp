// AppUi: the desktop's platform for the one Shell (normlab/views/shell.hpp) — the heatmap pictures on
// Vulkan (VulkanImageSet), presenter mode's fonts and style (large fonts loaded at their size, high
// contrast), the status bar with the device's GPU time, messages that fade, the File menu's rows
// (scene files, the one-line scene on the clipboard, exports, screenshots) and their dialogs, and the
// --state-file line of what the keys changed.
#pragma once
#include "normlab/views/actions.hpp"
#include "normlab/views/heatmap_view.hpp"
#include "normlab/views/shell.hpp"
#include "window.hpp"

#include "normlab/session/session.hpp"
#include "normlab/classroom/view_settings.hpp"

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

// How long the status bar shows a message: an error 20 s, a note 8 s.
inline std::chrono::seconds message_shown(bool error) { return std::chrono::seconds(error ? 20 : 8); }

class AppUi : public views::ShellPlatform {
public:
    AppUi(const Window& window, session::Session& session, std::string export_dir);

    views::Shell& shell() { return shell_; }
    // One frame: the key presses since the last frame (in order), at presenter mode's text size.
    void draw(const std::vector<views::KeyPress>& keys);
    void before_pass(vk::CommandBuffer cmd, vk::Extent2D extent) { images_.before_pass(cmd, extent); }
    std::optional<CaptureRequest> take_capture() { return std::exchange(capture_, std::nullopt); }
    void captured(const std::string& path, const std::string& error);
    // What the keys change, as one line of JSON (--state-file): method, groups, lesson id and
    // step (1-based), language, presenter, compare, cube, help, blank, whether a text field has
    // the keyboard, the Train view (train_report.hpp) and the frame number.
    std::string state_json(int frame) const;
    double frame_ms = 0;

    // ShellPlatform.
    std::unique_ptr<views::HeatmapImage> make_heatmap_image() override { return images_.make(); }
    std::unique_ptr<plan::ComputeBackend> make_backend() override;
    void message(const std::string& text, bool error = false) override;
    // The sweep's exports into the export folder (the file atomically; the PNG after this frame).
    void save_export(const std::string& name, const std::string& bytes) override;
    void save_export_png(const std::string& name, std::array<int, 4> crop) override;
    std::vector<views::Action> file_actions(views::Shell& shell) override;
    void presenter_look(bool on) override;
    void status_bar(const views::Rect& r) override;
    const char* exercise_hint() const override {
        return "Then save the scene (Ctrl+S) or copy it as one line (Ctrl+Shift+C) for the class.";
    }
    void own_windows() override { scene_popups(); }

private:
    // app_dialogs.cpp: the File menu's windows and actions.
    void scene_popups();
    void open_scene(const core::State& st, const std::string& name);
    // The Session's state replaced by the scene's; its view (InputError when either is refused).
    classroom::ViewSettings replace_scene(const core::State& st, const std::string& name);
    void copy_scene();
    void paste_scene();
    void export_files();
    void export_png();

    const Window& window_;
    session::Session& session_;
    std::string export_dir_;
    views::VulkanImageSet images_;  // the heatmap's and the compare, pair and gradient views' pictures
    views::Shell shell_;
    ImGuiStyle normal_style_, presenter_style_;
    std::string msg_;
    bool msg_error_ = false;
    std::chrono::steady_clock::time_point msg_time_;
    std::optional<CaptureRequest> capture_;
    bool open_save_ = false, open_load_ = false;
    std::string scene_path_ = "scene.normlab.json";  // the extension of the MIME type (packaging/)
};

}  // namespace normlab::app
