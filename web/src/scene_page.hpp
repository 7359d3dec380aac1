// The results page: a scene (the URL's #normlab-scene:… line, or the default State) normalized
// on WebGPU and checked against the float64 Reference, as a short summary and, on request, the
// statistics JSON of normlab-cli --stats (engine/core's stats_json).
#pragma once
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <optional>
#include <string>

namespace normlab::web {

struct PageResult {
    std::string summary;     // a few lines: method, shape, adapter, max error
    std::string stats_json;  // stats_json(...) with device = the WebGPU adapter
};

// scene_text: the text after '#' (empty: the default State). Throws InputError / DeviceError
// with a one-line message.
PageResult run_scene(webgpu::WgpuNormalizer& normalizer, const std::string& scene_text);

}  // namespace normlab::web
