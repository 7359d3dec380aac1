// The WGSL histogram (WgpuHistogram) in the browser's kernel test (?test=kernels): on the x and y of
// WgpuNormalizer runs over every method (tests/random_configs), the whole tensor, y − x and single
// statistics' sets, bin counts from 1 to 256, non-finite values, a constant set and a set of many
// chunks, against the CPU reference the Vulkan shader test uses (tests/histogram_reference.hpp):
// count, min and max exactly, every bin exactly in the same float32 edge arithmetic (a value within
// 1e-4 bin widths of an edge may fall on either side: counted, reported), mean and variance.
#pragma once
#include "normlab/webgpu/wgpu_normalizer.hpp"

#include <nlohmann/json.hpp>

namespace normlab::web {

nlohmann::json run_histogram_tests(webgpu::WgpuNormalizer& normalizer);

}  // namespace normlab::web
