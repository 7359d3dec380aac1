#include "page_session.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/io/file_kind.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/session/app_link.hpp"
#include "normlab/cpu/cpu_backend.hpp"
#include "normlab/webgpu/wgpu_backend.hpp"
#include "normlab/io/scene_file.hpp"

#include <filesystem>

namespace normlab::web {
namespace {

// A file the user opened into the page (page_common.js puts each under /files/), not one the site
// carries (the shipped images, "images/NAME.png"): no link can carry it.
bool user_file(const std::string& path) { return path.rfind("/files/", 0) == 0; }

// The file of the state's tensor or AdaIN style that is the user's ("" if none).
std::string user_file_of(const core::State& s) {
    const bool file =
        s.source.kind == core::TensorSource::Kind::File || s.source.kind == core::TensorSource::Kind::Image;
    if (file && user_file(s.source.path)) return s.source.path;
    return user_file(s.style_image) ? s.style_image : std::string();
}

bool from_file(const core::State& s) { return !user_file_of(s).empty(); }

}  // namespace

void PageSession::open_scene(const std::string& text, const std::string& name) {
    const std::string scene =
        session::parse_link(text, name).scene;  // the app's link: its scene (the results page's too)
    core::State next = scene.empty() ? core::State{} : io::scene_from_line(scene, name);
    check_page_scene(next, name);
    classroom::ViewSettings view =
        classroom::parse_view(next.view_json, name);  // a bad view refuses the scene, as the desktop's open does
    // A generated tensor's shape is checked before gigabytes are made.
    if (next.source.kind == core::TensorSource::Kind::Generated) check_fits(next.source.shape);
    core::Tensor x = io::load_tensor(next.source, next.spec.method);
    check_fits(x.shape);
    core::validate_selection(next.selection, x.shape);  // a scene's selection is its author's: refused, not dropped
    if (auto err = session_.replace(std::move(next), session::TensorChange::given(std::move(x))))
        throw core::InputError(*err);
    scene_view_ = view;
    remake_result();
}

void PageSession::open_file(const std::string& path, const std::string& name) {
    as_named(path, name, [&] { open_named(path, name); });
}

void PageSession::open_style(const std::string& path, const std::string& name) {
    as_named(path, name, [&] {
        if (io::file_kind(name) != io::FileKind::Image)
            throw core::InputError("'" + name + "' is not a PNG or JPEG image");
        if (state().spec.method != core::Method::Instance)
            throw core::InputError("AdaIN's style image is for InstanceNorm: choose the method instance first");
        if (auto err = session_.apply(session::with_style_image(state(), path), session::TensorChange::keep()))
            throw core::InputError(*err);
        remake_result();
    });
}

void PageSession::as_named(const std::string& path, const std::string& name, const std::function<void()>& open) {
    try {
        open();
    } catch (const core::InputError& e) {
        // The error names the file as the user knows it, not the page's copy of it.
        std::string line = e.what();
        for (auto at = line.find(path); at != std::string::npos; at = line.find(path, at + name.size()))
            line.replace(at, path.size(), name);
        throw core::InputError(line);
    }
}

void PageSession::open_named(const std::string& path, const std::string& name) {
    const io::FileKind kind = io::file_kind(name);
    if (kind == io::FileKind::Scene) return open_scene(io::read_file(path, 64u << 20), name);  // load_scene's bound
    core::State next;
    if (kind == io::FileKind::Npy)
        next = session::with_source_file(state(), path);
    else if (kind == io::FileKind::Image)
        next = session::with_source_image(state(), path);
    else
        throw core::InputError("'" + name + "' is not a .npy, PNG, JPEG or scene (.json) file");
    // An edit of the tensor, as the app's Open: the Session fits the rest of the state to it.
    core::Tensor x = io::load_tensor(next.source, next.spec.method);
    check_fits(x.shape);
    if (auto err = session_.apply(std::move(next), session::TensorChange::given(std::move(x))))
        throw core::InputError(*err);
    remake_result();
}

const PageResult& PageSession::result() const {
    if (result_ && result_generation_ != session_.generation()) remake_result();  // the panels edited the Session
    return *result_;
}

void PageSession::remake_result() const {
    result_ = page_result(session_);
    result_generation_ = session_.generation();
}

void PageSession::check_fits(const core::Shape4& shape) const {
    if (auto* w = dynamic_cast<webgpu::WgpuBackend*>(backend_)) w->normalizer().check_capacity(shape);
    if (auto* c = dynamic_cast<cpu::CpuBackend*>(backend_)) c->normalizer().check_capacity(shape);
    check_page_memory(shape);
}

std::optional<std::string> PageSession::link(const classroom::ViewSettings& view) const {
    if (from_file(state())) return std::nullopt;
    core::State s = state();
    s.view_json = view == classroom::ViewSettings{} ? std::string() : classroom::view_to_json(view);
    return io::scene_to_line(s);
}

std::string PageSession::why_no_link() const {
    if (!from_file(state())) return "";
    const std::string file = user_file_of(state());
    return std::string("a link carries generated tensors, presets and the site's images; ") +
           (file == state().style_image ? "AdaIN's style image" : "this tensor") + " is the file '" +
           std::filesystem::path(file).filename().string() + "' (Save scene and hand out the file beside it)";
}

std::pair<std::string, std::string> PageSession::download(const std::string& kind,
                                                          const classroom::ViewSettings& view) const {
    if (!result_) throw core::InputError("nothing to save yet");
    if (kind == "scene") {
        core::State s = state();
        s.view_json = view == classroom::ViewSettings{} ? std::string() : classroom::view_to_json(view);
        // The file by its name alone: normlab reads a relative path from the working directory,
        // so the scene works where the file lies beside it.
        if (user_file(s.source.path)) s.source.path = std::filesystem::path(s.source.path).filename().string();
        if (user_file(s.style_image)) s.style_image = std::filesystem::path(s.style_image).filename().string();
        return {"normlab-scene.normlab.json", io::scene_to_json(s)};
    }
    if (kind == "stats") return {"normlab-stats.json", result().stats_json};
    if (kind == "y") {
        const core::Tensor& y = session_.result().y;
        return {"normlab-y.npy", io::npy_bytes_f32(y.shape.dims(), y.data.data())};
    }
    throw core::InputError("unknown download '" + kind + "' (scene, stats, y)");
}

}  // namespace normlab::web
