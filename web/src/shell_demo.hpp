// The small demonstration frame app.html shows in the ImGui shell (web_window.hpp) until the app's
// own panels run there: a State (the default, or the URL's #normlab-scene:…) shown by the app's
// model (a PageSession's Session on the WebGPU backend), its heatmap in statistics mode filled by
// WgpuHeatmap from the Session's device x and y (heatmap.wgsl, with the
// app's fill parameters, tile layout and palette) and drawn as an ImGui image that scales with
// the window, a menu bar with the language switch (views/i18n) and a status line naming the
// adapter. After the first frame and whenever it changes, a JSON report goes to the page
// (normlabPage.report: what is drawn where, for the web tests).
#pragma once
#include "gl_texture.hpp"
#include "page_session.hpp"
#include "tile_layout.hpp"
#include "web_window.hpp"

#include "normlab/webgpu/wgpu_heatmap.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace normlab::web {

// Steps of the start and when each ended (emscripten_get_now(): ms since the navigation started).
using StartupTimes = std::vector<std::pair<std::string, double>>;

class ShellDemo {
public:
    // Normalizes the scene `scene_text` (empty: the default State) and fills its heatmap. A scene
    // that cannot be shown leaves its one-line error in the status line and the default State on
    // screen. Throws DeviceError / InputError only when the default State cannot run either.
    ShellDemo(WebWindow& window, webgpu::WgpuBackend& backend, const std::string& scene_text);

    // A scene pasted into the address bar (empty: the default State): shown, or (false) its
    // one-line error in the status line with what is shown kept.
    bool open_scene(const std::string& text);
    // One frame: the menu bar, the heatmap window and the status line.
    void draw();
    // The start's steps, for the report (its "startup_ms", with the first frame added).
    void set_startup(StartupTimes t) { startup_ = std::move(t); }

private:
    void open(const std::string& text);  // throws, keeping what is shown
    const Session& session() const { return page_.session(); }
    void menu_bar();
    void heatmap_window();
    void report();

    WebWindow& window_;
    PageSession page_;
    webgpu::WgpuHeatmap fill_;
    std::string method_, error_;
    app::TileLayout tiles_;
    std::vector<std::uint32_t> pixels_;
    GlTexture texture_;
    std::array<float, 4> image_rect_{};  // where the heatmap was drawn, in canvas pixels
    std::string last_report_, missing_;  // missing_: Chinese glyphs the atlas lacks (drawn as '?')
    float glyphs_scale_ = 0;
    StartupTimes startup_;
};

}  // namespace normlab::web
