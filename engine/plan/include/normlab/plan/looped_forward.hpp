// looped_forward: whether statistics too long for a fused kernel run as one owner (workgroup)
// per statistic that loops over it twice (statistic, then y) instead of partials + merge + apply.
// Backend-neutral; the Vulkan plan (engine/ops' Normalizer, norm_stats.comp LOOPED) and the WebGPU
// plan (engine/webgpu, norm_looped.wgsl) ask it.
#pragma once
#include <cstdint>

namespace normlab::plan {

// A CPU device (lavapipe, SwiftShader), where a barrier or an invocation costs more than a second
// read of x: from 1 owner (docs/bench/lavapipe-forward-looped.md, docs/bench/web.md). A GPU: never.
// On an NVIDIA H200 one owner per statistic was slower than the split passes or no faster: 2,048
// statistics of 65,536 elements took 0.41 (layer [H,W]) and 0.61 (instance, group C) of the copy
// looped, against 0.62–0.64 split (docs/performance.md).
constexpr std::uint64_t kCpuNormLoopedOwners = 1;

inline bool looped_forward(bool cpu_device, std::uint64_t stat_count, std::uint64_t /*count*/) {
    return cpu_device && stat_count >= kCpuNormLoopedOwners;
}

}  // namespace normlab::plan
