// Scene files: the whole State as JSON (format in docs/scene-format.md) or as one line of text
// for the clipboard, and the tensor a State's TensorSource names.
#pragma once
#include "normlab/core/state.hpp"

#include <optional>
#include <string>

namespace normlab::io {

// The tensor the source describes; throws InputError (bad file, unknown preset, bad shape).
// A .npy of a rank normlab does not take is refused with rank_error(method) (PyTorch's text for
// the method that will run it; normlab's own without one).
core::Tensor load_tensor(const core::TensorSource& source, std::optional<core::Method> method = std::nullopt);

std::string scene_to_json(const core::State& state);
// Parses a scene; throws InputError("<name>: <what is wrong>") and never returns half a state.
core::State scene_from_json(const std::string& text, const std::string& name);
core::State load_scene(const std::string& path);
void save_scene(const core::State& state, const std::string& path);  // atomic
// A scene as one line of text for the clipboard: "normlab-scene:" and the scene's compact JSON
// in base64url (no quotes or spaces for a chat program to change).
std::string scene_to_line(const core::State& state);
// Reads such a line, or a scene's JSON text (one line or many), ignoring surrounding blanks.
// Throws InputError("<name>: ...") and never returns half a state.
core::State scene_from_line(const std::string& text, const std::string& name = "pasted scene");

}  // namespace normlab::io
