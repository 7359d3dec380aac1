#include "normlab/views/gpu_upload.hpp"

#include "normlab/gpu/staging.hpp"

namespace normlab::views {

void upload_buffer(const gpu::VulkanContext& ctx, gpu::GpuBuffer& dst, const void* src, std::size_t bytes) {
    const vk::DeviceSize want = bytes == 0 ? 4 : bytes;
    if (!dst || dst.size() != want)
        dst = gpu::GpuBuffer(ctx, bytes, gpu::BufferRole::Compute);  // a failed allocation keeps the old one
    if (bytes == 0) return;
    gpu::CommandRecorder recorder(ctx);
    gpu::Staging(ctx, recorder, want).upload({{&dst, 0, src, bytes}});
}

}  // namespace normlab::views
