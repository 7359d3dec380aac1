// ControlsPanel: the Tensor panel (shape, init, seed, preset, .npy file, regenerate) and the
// Method panel (method, G among the divisors of C, normalized_shape, eps, affine and γ/β,
// BatchNorm's mode, momentum, running statistics, train step and reset; an image as the
// tensor and AdaIN's style image). Every edit builds
// a new State and hands it to the Session; a rejected one leaves the previous state and
// its reason is shown here. Where the app has a file chooser of its own (the browser's), a .npy or
// an image source shows the opened file's name and a button that opens the chooser instead of a
// path field and the working folder's files.
#pragma once
#include "normlab/session/state_edits.hpp"
#include "normlab/session/session.hpp"

#include <array>
#include <functional>
#include <string>

namespace normlab::views {

class ControlsPanel {
public:
    void draw(session::Session& session);
    // The last rejected edit's reason ("" when the last edit was accepted).
    const std::string& error() const { return error_; }
    // Set by an app with its own file chooser (the browser's File > Open…), which it opens:
    // for the tensor, and for AdaIN's style image.
    std::function<void()> pick_file;
    std::function<void()> pick_style_file;

private:
    void tensor_section(session::Session& s);
    // Each returns (true) when it applied an edit, after which the panel draws no more.
    bool shape_editor(session::Session& s);
    void source_controls(session::Session& s);
    bool generated_controls(session::Session& s);
    bool preset_controls(session::Session& s);
    void file_controls(session::Session& s);
    // The opened file's name and a button for pick_file; returns false where there is no pick_file.
    bool chooser_controls(const session::Session& s, core::TensorSource::Kind kind);
    void image_controls(session::Session& s);  // image_controls.cpp: open a PNG/JPEG as the tensor
    void style_controls(session::Session& s);  // image_controls.cpp: instance: AdaIN's style image
    void method_section(session::Session& s);
    void affine_section(session::Session& s);
    void batch_section(session::Session& s);
    bool sync_section(session::Session& s);
    void apply(session::Session& s, const core::State& next, session::TensorChange change);

    std::string error_;
    std::array<int, 5> shape_edit_{};  // the tensor's dims as the user sees them (rank of them)
    bool shape_dirty_ = false;
    std::string path_edit_;
    std::string image_edit_, style_edit_;
    bool pending_image_ = false;  // "image file" chosen in the source combo, no image loaded yet
    std::uint64_t seen_generation_ = ~0ull;
};

}  // namespace normlab::views
