// Copies host data into a small device buffer the app's views own (palettes, colormap
// tables): through the engine's Staging (a memcpy where compute buffers are mapped).
#pragma once
#include "normlab/gpu/gpu_buffer.hpp"

#include <cstddef>

namespace normlab::views {

// (Re)creates `dst` with exactly `bytes` bytes when its size differs, then uploads `src`.
// The caller makes sure no submitted work still uses `dst` (e.g. device().waitIdle()).
void upload_buffer(const gpu::VulkanContext& ctx, gpu::GpuBuffer& dst, const void* src, std::size_t bytes);

}  // namespace normlab::views
