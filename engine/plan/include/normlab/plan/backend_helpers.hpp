// The small helpers every compute backend uses (engine/ops for Vulkan, engine/webgpu): a kernel
// parameter narrowed to 32 bits, and the host milliseconds since a time point.
#pragma once
#include <chrono>
#include <cstdint>

namespace normlab::plan {

// A size or index for a kernel's 32-bit parameter block (the plans check the limits first).
inline std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }

// Host wall time since t0, in milliseconds.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace normlab::plan
