// Presets: the worked examples and experiments of the source texts (../shared/seeds) as
// ready-made tensors with the method and parameters they were shown with.
#pragma once
#include "normlab/norm_params.hpp"
#include "normlab/norm_spec.hpp"
#include "normlab/tensor.hpp"

#include <optional>
#include <string>
#include <vector>

namespace normlab {

struct Preset {
    std::string name;         // e.g. "seed004-bn"
    std::string source;       // where it comes from, e.g. "seed 004, BatchNorm example"
    std::string description;  // one line: what it shows and the numbers to expect
    std::string source_zh, description_zh;  // the same in Simplified Chinese
    Tensor x;
    NormSpec spec;            // the method it was shown with
    NormParams params;        // γ/β it was shown with (empty: defaults)
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);

}  // namespace normlab
