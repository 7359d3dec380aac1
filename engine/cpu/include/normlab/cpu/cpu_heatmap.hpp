// The heatmap fill on the CPU, the twin of shaders/heatmap.comp and shaders/wgsl/heatmap.wgsl: one
// packed RGBA8 value (red in the low byte) per pixel of an N×C grid of H×W tiles (or of the window of it
// that a zoomed heatmap shows), from x and y in host memory, with the same parameters (engine/plan's
// HeatmapFillParams), pixel rule, colour table and palette (RGBA floats, as the kernels' buffers hold
// them) and the same float32 arithmetic. Any front end that holds x and y on the host can draw the
// heatmap with it (the browser app on the CPU backend does).
#pragma once
#include "normlab/plan/heatmap_fill_params.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace normlab::cpu {

// `palette`: 4 floats per statistic; `lut`: params.lut_size RGBAs; x and y: `count` values each
// (at least N·C·H·W). InputError when the tensors, palette or table are smaller than params ask.
std::vector<std::uint32_t> fill_heatmap(const float* x, const float* y, std::size_t count,
                                        const std::vector<float>& palette, const std::vector<float>& lut,
                                        const plan::HeatmapFillParams& params);

}  // namespace normlab::cpu
