// WebApp: the browser's platform for the one Shell (normlab/views/shell.hpp) in app.html — the heatmap
// pictures filled by heatmap.wgsl (on the CPU without WebGPU) and drawn as WebGL textures
// (web_heatmap_image), the batch-noise panel's own backend of the page's kind, presenter mode's fonts, the status bar
// (the last error or note, the recompute's wall time and the float64 check), and the File menu's rows as the browser
// does them: the browser's file chooser (or a drop), downloads of the scene, statistics, y, a screenshot or the figure,
// the link and the one-line scene on the clipboard, a scene line pasted into the page. The app's model is a
// PageSession's Session on the page's backend (WebGPU, or the CPU: page_backend.hpp), whose every edit is
// Session::apply, as on the desktop. The address bar always holds the link of what is shown
// (normlab/session/app_link.hpp: the lesson step, language, presenter mode and the scene with its view); the CJK font
// is fetched only when Chinese is asked for (the page does it, then the atlas is made again); after each frame whose
// report
// changed, a JSON report goes to the page (normlabPage.report: what is drawn where, for the web tests).
#pragma once
#include "normlab/views/actions.hpp"
#include "page_backend.hpp"
#include "page_session.hpp"
#include "normlab/views/shell.hpp"
#include "web_heatmap_image.hpp"
#include "web_window.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::web {

// Steps of the start and when each ended (emscripten_get_now(): ms since the navigation started).
using StartupTimes = std::vector<std::pair<std::string, double>>;

class WebApp : public views::ShellPlatform {
public:
    // Opens the address's link: `query` (the text after '?', its link keys; others are skipped) under
    // `link` (the text after '#'); none: the default State. A link that cannot be shown leaves its
    // one-line error in the status bar and the default State on screen. Throws DeviceError /
    // InputError only when the default State cannot run either. `lessons`: the built-in lessons
    // (loaded before the window, whose font atlas needs their Chinese glyphs). `backend`: the page's
    // (WebGPU, or the CPU backend with the reason), kept by the caller.
    WebApp(WebWindow& window, const PageBackend& backend, const std::string& query, const std::string& link,
           views::LessonPanel lessons);

    // A link (or a scene line) pasted into the address bar (empty: the default State): shown, or
    // (false) its one-line error in the status bar with what is shown kept.
    bool open_link(const std::string& text, const std::string& name = "the link in the URL");
    // The CJK font the page fetched (ShellPlatform::load_cjk_font) is in its file system (`ok`), or
    // could not be fetched.
    void cjk_font_fetched(bool ok);
    // Text pasted into the page (Ctrl+V) or read from the clipboard (File > Paste scene): into the
    // text field that has the keyboard, which ImGui pastes it into, or else opened as a scene line.
    void paste(const std::string& text, bool from_menu);
    // A file the page wrote into its file system at `path` (picked with File > Open… or dropped on
    // the page; `name` is what the user opened): PageSession::open_file, or its one-line error in
    // the status bar with what is shown kept.
    void open_file(const std::string& path, const std::string& name);
    // An image picked as AdaIN's style (File > Open an image as AdaIN's style…, or the Controls
    // panel's button): PageSession::open_style, or its one line with what is shown kept.
    void open_style(const std::string& path, const std::string& name);
    // One frame: the keys, the shell, then the address bar's link and the report.
    void draw();
    void set_startup(StartupTimes t) { startup_ = std::move(t); }
    views::Shell& shell() { return shell_; }

    // ShellPlatform.
    std::unique_ptr<views::HeatmapImage> make_heatmap_image() override;
    std::unique_ptr<plan::ComputeBackend> make_backend() override;
    void message(const std::string& text, bool error) override;
    // A file in /downloads handed to the browser as a download (File > Save …, the sweep's exports).
    void save_export(const std::string& name, const std::string& bytes) override;
    // The next frame's pixels in `crop` (zero: all) as the PNG download `name`.
    void save_export_png(const std::string& name, std::array<int, 4> crop) override;
    std::vector<views::Action> file_actions(views::Shell& shell) override;
    void presenter_look(bool on) override;
    void status_bar(const views::Rect& r) override;
    const char* exercise_hint() const override {
        return "Then save the scene (File > Save scene) or copy its link (File > Copy link) for the class.";
    }
    bool cjk_font_loadable() const override;
    void load_cjk_font() override;
    std::vector<int> host_keys() const override;

private:
    // `scene_name`: how the scene's errors name it ("the scene in the URL", "pasted scene").
    bool open(const session::AppLink& link, const std::string& scene_name);
    // The link of what is shown ("": none, the tensor being a file the user opened).
    std::string link_now() const;
    // open(), then "opened NAME" in the status bar, or its error's one line with what is shown kept.
    void opened(const std::string& name, const std::function<void()>& open);
    // File > Save …: PageSession::download written to /downloads and handed to the browser.
    void download(const std::string& kind);
    void copy_link();
    void copy_scene();
    // File > Screenshot / Export heatmap + histograms: the next frame's pixels (the figure's part, when
    // `figure`) as a PNG download.
    void save_png(bool figure);
    // Keeps the address bar's #normlab-scene:… the shown state's (history.replaceState: no reload).
    void keep_link();
    // web_app_report.cpp: the report, of what is shown and of where it is drawn.
    void report();
    nlohmann::json state_report() const;
    nlohmann::json layout_report() const;

    WebWindow& window_;
    const PageBackend& backend_;
    PageSession page_;
    std::vector<WebHeatmapImage*> images_;  // the heatmap's (first), then the views'; owned by their panels
    views::Shell shell_;
    std::string error_;             // the last open's error line ("" after a successful one)
    std::string note_;              // the last file action's line (not an error)
    std::string shown_link_ = "?";  // the link the address bar holds ("?": to be sent again)
    std::string copied_link_;       // the link Copy link put on the clipboard, while it is shown
    bool font_fetching_ = false, font_failed_ = false;
    std::uint64_t link_generation_ = 0;  // the Session's generation, selection and shell parts shown_link_ is of
    std::optional<core::Index4> link_selection_;
    classroom::ViewSettings link_view_;
    session::AppLink link_parts_;
    std::string last_report_, missing_;  // missing_: Chinese glyphs the atlas lacks (drawn as '?')
    float glyphs_scale_ = 0;
    StartupTimes startup_;
};

}  // namespace normlab::web
