// State: the one description of what the user asked for — tensor source, method and its
// hyper-parameters, γ/β and running statistics, the selected element. The GUI edits it, the
// CLI and scene files parse into it, the engine consumes it; so none of them can drift apart.
#pragma once
#include "normlab/core/exercise.hpp"
#include "normlab/core/norm_params.hpp"
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/tensor.hpp"
#include "normlab/core/tensor_init.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace normlab {

struct TensorSource {
    enum class Kind { Generated, Preset, File, Image };
    Kind kind = Kind::Preset;
    Shape4 shape{4, 6, 4, 4};  // Generated
    Init init = Init::Randn;   // Generated
    float value = 0.0f;        // Generated with Init::Constant
    std::uint64_t seed = 0;    // Generated
    std::string preset = "classroom";
    std::string path;  // File: a 4-D .npy; Image: a PNG or JPEG (image_file.hpp)
};

using Index4 = std::array<std::int64_t, 4>;

struct State {
    TensorSource source;
    NormSpec spec = default_spec(Method::Batch);
    NormParams params;
    std::optional<Index4> selection;  // (n, c, h, w)
    std::string view_json;            // the app's view settings (opaque here), "" if none
    std::string style_image;          // instance only: AdaIN's style image (adain.hpp), "" if none
    Exercise exercise;                // controls a handed-out scene hides or locks
};

// Whether two sources name the same tensor (the fields of their kind: a generated tensor's
// shape, init, seed and value; a preset's name; a file's or an image's path).
bool same_source(const TensorSource& a, const TensorSource& b);
// The tensor the source describes; throws InputError (bad file, unknown preset, bad shape).
// A .npy of a rank normlab does not take is refused with rank_error(method) (PyTorch's text for
// the method that will run it; normlab's own without one).
Tensor load_tensor(const TensorSource& source, std::optional<Method> method = std::nullopt);

// Throws InputError unless the selection lies inside shape.
void validate_selection(const std::optional<Index4>& sel, const Shape4& shape);

// Scene files: the whole State as JSON (format in docs/scene-format.md).
std::string scene_to_json(const State& state);
// Parses a scene; throws InputError("<name>: <what is wrong>") and never returns half a state.
State scene_from_json(const std::string& text, const std::string& name);
State load_scene(const std::string& path);
void save_scene(const State& state, const std::string& path);  // atomic
// A scene as one line of text for the clipboard: "normlab-scene:" and the scene's compact JSON
// in base64url (no quotes or spaces for a chat program to change).
std::string scene_to_line(const State& state);
// Reads such a line, or a scene's JSON text (one line or many), ignoring surrounding blanks.
// Throws InputError("<name>: ...") and never returns half a state.
State scene_from_line(const std::string& text, const std::string& name = "pasted scene");

}  // namespace normlab
