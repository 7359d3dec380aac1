// The page's one state: the app's model (engine/session's Session on the page's backend: WebGPU, or
// the CPU backend in a browser without WebGPU) and the
// opens that change it — the URL's scene, a scene pasted into the address bar, a file picked or
// dropped on the page (.npy, PNG, JPEG, a scene). A scene replaces the state (Session::replace),
// a tensor file is an edit of it (Session::apply: the method stays, what no longer fits the
// tensor goes back to its default). An open that fails throws a one-line InputError /
// DeviceError and leaves the state and the result as they were. The state is also what the
// page hands out: a link (#normlab-scene:…) and downloads.
#pragma once
#include "scene_page.hpp"

#include "normlab/classroom/view_settings.hpp"
#include "normlab/plan/compute_backend.hpp"
#include "normlab/session/session.hpp"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::web {

class PageSession {
public:
    explicit PageSession(plan::ComputeBackend& backend) : backend_(&backend), session_(backend) {}

    // text: a "normlab-scene:…" line, a scene's JSON or an app's link (its scene; app_link.hpp); empty
    // or a link without a scene: the default State. A scene's view is
    // checked here (a bad one refuses the scene) and kept in the state's view_json for the app to show.
    void open_scene(const std::string& text, const std::string& name);
    // The view of the scene opened last (parsed by open_scene), for the app to show.
    const classroom::ViewSettings& scene_view() const { return scene_view_; }
    // A file the page wrote into its file system at `path`; `name` is what the user opened.
    // A .npy or an image keeps the method and its settings (what no longer fits the tensor goes
    // back to its default); a scene (.json) replaces the state.
    void open_file(const std::string& path, const std::string& name);
    // An image the page wrote at `path` as AdaIN's style (method instance); InputError, with the
    // state kept, for another file or method.
    void open_style(const std::string& path, const std::string& name);

    // The summary and statistics of what the Session shows now (made again after an edit).
    const PageResult& result() const;
    const session::Session& session() const { return session_; }
    // The Session for the app's panels (the ImGui shell), which edit it as on the desktop: each edit
    // is Session::apply (the device's binding limit checked there). After an open only.
    session::Session& edit_session() { return session_; }
    // The state, with `view` (how the app shows it; the defaults for the results page), as
    // "normlab-scene:…" for the URL; nullopt when a link cannot carry it (the tensor is a file the
    // user opened), with why_no_link() saying so.
    std::optional<std::string> link(const classroom::ViewSettings& view = {}) const;
    std::string why_no_link() const;
    // A download: "scene" (NAME.normlab.json), "stats" (.json) or "y" (.npy of the user's dims).
    // The scene carries `view`. Returns the file name and the bytes; throws InputError for another
    // kind or before a result.
    std::pair<std::string, std::string> download(const std::string& kind,
                                                 const classroom::ViewSettings& view = {}) const;

private:
    void open_named(const std::string& path, const std::string& name);
    // result_ made from the Session's state now.
    void remake_result() const;
    // open(), its InputError naming the file `name` where it says `path` (the page's copy).
    static void as_named(const std::string& path, const std::string& name, const std::function<void()>& open);
    const core::State& state() const { return session_.state(); }
    // Throws InputError naming the limit when a tensor of this shape fits neither the device's
    // binding (WgpuNormalizer's check) or the CPU backend's element limit, nor the page's memory.
    void check_fits(const core::Shape4& shape) const;

    plan::ComputeBackend* backend_;
    session::Session session_;
    classroom::ViewSettings scene_view_;
    mutable std::optional<PageResult> result_;     // of session_'s state, after the first open
    mutable std::uint64_t result_generation_ = 0;  // session_.generation() result_ was made at
};

}  // namespace normlab::web
