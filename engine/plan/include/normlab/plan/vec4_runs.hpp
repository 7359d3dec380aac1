// vec4_runs: whether a StatLayout suits kernels that read and write 16 bytes (4 floats) at a
// time. Backend-neutral; the Vulkan plan (engine/ops' Normalizer) and the WebGPU plan
// (engine/webgpu) ask it.
#pragma once
#include "normlab/core/stat_layout.hpp"

namespace normlab::plan {

// Every run of a statistic starts at a multiple of 4 elements and holds whole vec4s, and the 4
// elements of a vec4 share one γ/β index or have 4 consecutive ones.
inline bool vec4_runs(const core::StatLayout& L) {
    return L.segment_len % 4 == 0 && L.stat_stride % 4 == 0 && (L.segments == 1 || L.segment_stride % 4 == 0) &&
           (L.param_elem_div <= 1 || L.param_elem_div % 4 == 0) && (L.param_elem_div != 1 || L.param_stat_mul % 4 == 0);
}

}  // namespace normlab::plan
