// Powers of two for kernel plans (workgroup sizes, reduction widths), shared by the Vulkan and
// the WebGPU normalizers: the smallest power of two ≥ v (1 for v ≤ 1) and the largest ≤ v
// (1 for v ≤ 1).
#pragma once
#include <cstdint>

namespace normlab::plan {

inline std::uint32_t pow2_ceil(std::uint64_t v) {
    std::uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

inline std::uint32_t pow2_floor(std::uint32_t v) {
    std::uint32_t p = 1;
    while (p * 2 <= v) p <<= 1;
    return p;
}

}  // namespace normlab::plan
