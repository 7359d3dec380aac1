// The results page's computation: a State normalized on WebGPU and checked against the float64
// Reference, as a short summary, the statistics JSON of normlab-cli --stats (engine/core's
// stats_json) and the output y; the normalizer's buffers keep x and y on the device.
#pragma once
#include "normlab/state.hpp"
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <string>

namespace normlab::web {

struct PageResult {
    std::string summary;     // a few lines: method, shape, adapter, max error
    std::string stats_json;  // stats_json(...) with device = the WebGPU adapter
    Tensor y;                // the output, as the shaders wrote it
    StatLayout layout;       // which elements share a statistic (the heatmap's statistics mode)
    double max_error = 0;    // max |y − float64 reference|
};

// Throws InputError for what the browser edition cannot open: a scene (`name` says where it
// came from) whose tensor is a file path or that uses a style image (AdaIN).
void check_page_scene(const State& state, const std::string& name);
// Loads x from state.source and normalizes it. Throws InputError / DeviceError with a one-line
// message (a tensor over the binding limit or the page's memory, a spec the engine refuses).
PageResult run_state(webgpu::WgpuNormalizer& normalizer, const State& state);

}  // namespace normlab::web
