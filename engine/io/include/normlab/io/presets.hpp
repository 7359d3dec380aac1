// Presets: the worked examples and experiments of the course notes normlab was made for ("seed
// 000" to "seed 004" in the lessons, docs/classroom.md) as ready-made tensors with the method and
// parameters they were shown with. Each is a JSON file in assets/presets/ (format in
// docs/scene-format.md), embedded into the binaries at build time (cmake/embed_text.cmake), so no
// assets folder is needed at run time.
#pragma once
#include "normlab/core/norm_params.hpp"
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/tensor.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab::io {

struct Preset {
    std::string name;                       // e.g. "seed004-bn"
    std::string source;                     // where it comes from, e.g. "seed 004, BatchNorm example"
    std::string description;                // one line: what it shows and the numbers to expect
    std::string source_zh, description_zh;  // the same in Simplified Chinese
    core::Tensor x;
    core::NormSpec spec;      // the method it was shown with
    core::NormParams params;  // γ/β it was shown with (empty: defaults)
    // "literals": numbers its description states that are not the engine's results for the
    // preset's state (shapes, seeds' values, ε), as a lesson step's (lesson_text.hpp).
    std::vector<std::string> literals;
};

// Presets are classroom-sized: a preset's tensor holds at most this many elements.
inline constexpr std::int64_t kMaxPresetElements = std::int64_t{1} << 16;

// The embedded presets, in file-name order; throws InputError if one of them is malformed
// (the tests load them all, so a build that passes its tests never does).
const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);

// Parses one preset file; throws InputError("<name>: <what is wrong>").
Preset preset_from_json(const std::string& text, const std::string& name);

}  // namespace normlab::io
