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

namespace normlab::core {

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
// Throws InputError unless the selection lies inside shape.
void validate_selection(const std::optional<Index4>& sel, const Shape4& shape);

}  // namespace normlab::core
