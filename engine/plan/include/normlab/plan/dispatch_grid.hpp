// The grid a backend dispatches a count of workgroups on: one function for every backend (Vulkan's
// maxComputeWorkGroupCount, WebGPU's maxComputeWorkgroupsPerDimension), so a kernel that
// linearizes its workgroup id (y · x + x) sees the same grid whichever device runs it.
#pragma once
#include <cstdint>

namespace normlab::plan {

struct DispatchGrid {
    std::uint32_t x = 1, y = 1;
};

// `groups` workgroups (at least 1) as x · y ≥ groups with x ≤ max_x and y ≤ max_y: one row where
// they fit, else the fewest rows of about equal length. InputError when even max_x · max_y is fewer.
DispatchGrid dispatch_grid(std::uint64_t groups, std::uint64_t max_x, std::uint64_t max_y);

}  // namespace normlab::plan
