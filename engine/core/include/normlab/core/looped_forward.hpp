// looped_forward: whether statistics too long for a fused kernel run as one owner (workgroup)
// per statistic that loops over it twice (statistic, then y) instead of partials + merge + apply.
// Backend-neutral; the Vulkan plan (engine/ops' Normalizer, norm_stats.comp LOOPED) and the WebGPU
// plan (engine/webgpu, norm_looped.wgsl) ask it.
#pragma once
#include <cstdint>

namespace normlab {

// A CPU device (lavapipe, SwiftShader), where a barrier or an invocation costs more than a second
// read of x: from 1 owner (docs/bench/lavapipe-forward-looped.md, docs/bench/web.md). A GPU: the
// owners it needs busy before one owner per statistic beats the split passes, and the longest
// statistic (x: 1 MiB) whose second read is left to the cache; a guess, not measured.
constexpr std::uint64_t kCpuNormLoopedOwners = 1, kGpuNormLoopedOwners = 2048, kGpuNormLoopedElements = 262144;

inline bool looped_forward(bool cpu_device, std::uint64_t stat_count, std::uint64_t count) {
    return cpu_device ? stat_count >= kCpuNormLoopedOwners
                      : stat_count >= kGpuNormLoopedOwners && count <= kGpuNormLoopedElements;
}

}  // namespace normlab
