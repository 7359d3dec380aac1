// GpuBuffer: a Vulkan buffer with its own memory. Device buffers prefer device-local memory
// and are mapped directly when that memory is also host-visible (lavapipe, ReBAR GPUs);
// otherwise uploads and readbacks go through a staging buffer (Normalizer::run's upload).
#pragma once
#include "normlab/vk_context.hpp"

#include <cstdint>

namespace normlab {

enum class BufferKind { Device, Staging };

class GpuBuffer {
public:
    GpuBuffer() = default;
    GpuBuffer(const VulkanContext& ctx, vk::DeviceSize bytes, BufferKind kind);
    GpuBuffer(GpuBuffer&&) noexcept = default;
    GpuBuffer& operator=(GpuBuffer&&) noexcept = default;

    vk::Buffer handle() const { return *buffer_; }
    vk::DeviceSize size() const { return size_; }
    bool mappable() const { return mapped_ != nullptr; }
    void* data() const { return mapped_; }   // null when not host-visible
    explicit operator bool() const { return size_ != 0; }

private:
    vk::raii::DeviceMemory memory_{nullptr};
    vk::raii::Buffer buffer_{nullptr};
    vk::DeviceSize size_ = 0;
    void* mapped_ = nullptr;
};

}  // namespace normlab
