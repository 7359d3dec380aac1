// GpuBuffer: a Vulkan buffer with its own memory, placed by role (memory_plan.hpp): compute
// buffers device-local (mapped only where that memory is also host-cached: integrated GPUs,
// lavapipe), upload and readback staging buffers host-visible and mapped.
#pragma once
#include "normlab/plan/buffer_generation.hpp"
#include "normlab/gpu/memory_plan.hpp"
#include "normlab/gpu/vk_context.hpp"

#include <cstdint>

namespace normlab::gpu {

class GpuBuffer {
public:
    GpuBuffer() = default;
    GpuBuffer(const VulkanContext& ctx, vk::DeviceSize bytes, BufferRole role);
    GpuBuffer(GpuBuffer&&) noexcept = default;
    GpuBuffer& operator=(GpuBuffer&&) noexcept = default;

    vk::Buffer handle() const { return *buffer_; }
    // This buffer's number (normlab/plan/buffer_generation.hpp): a re-created buffer has a new one even
    // where the driver hands back the old handle. 0 for no buffer.
    std::uint64_t generation() const { return generation_; }
    vk::DeviceSize size() const { return size_; }
    BufferRole role() const { return role_; }
    bool mappable() const { return mapped_ != nullptr; }
    void* data() const { return mapped_; }  // null when the CPU does not map it
    explicit operator bool() const { return size_ != 0; }

private:
    vk::raii::DeviceMemory memory_{nullptr};
    vk::raii::Buffer buffer_{nullptr};
    vk::DeviceSize size_ = 0;
    BufferRole role_ = BufferRole::Compute;
    void* mapped_ = nullptr;
    std::uint64_t generation_ = 0;
};

// Makes buf a compute buffer of at least max(bytes, 16) bytes: re-created (its old memory freed
// first) when it is smaller. Returns true when it was re-created (its contents are gone).
bool ensure_compute_buffer(const VulkanContext& ctx, GpuBuffer& buf, vk::DeviceSize bytes);

}  // namespace normlab::gpu
