// The WGSL heatmap fill (WgpuHeatmap) in the browser's kernel test (?test=kernels): on the x and y of
// WgpuNormalizer runs over every method (tests/random_configs), each mode (x, y, y − x through the
// app's colour tables, statistics through its palettes; views/common's colormap), with and without a selected
// statistic, cells larger and smaller than a pixel (TileLayout::fit, the app's geometry), the block
// made by fill_push (normlab/views/heatmap_fill.hpp). Every pixel against the CPU reference the Vulkan shader
// test uses (tests/heatmap_reference.hpp), within 1 unit per 8-bit channel.
#pragma once
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <nlohmann/json.hpp>

namespace normlab::web {

nlohmann::json run_heatmap_tests(webgpu::WgpuNormalizer& normalizer);

}  // namespace normlab::web
