#include "normlab/gpu_buffer.hpp"

#include "normlab/error.hpp"

namespace normlab {

GpuBuffer::GpuBuffer(const VulkanContext& ctx, vk::DeviceSize bytes, BufferKind kind) {
    using U = vk::BufferUsageFlagBits;
    using M = vk::MemoryPropertyFlagBits;
    size_ = bytes == 0 ? 4 : bytes;
    if (size_ > ctx.device_memory_bytes())
        throw InputError("a buffer of " + std::to_string(size_) + " bytes does not fit the device's " +
                         std::to_string(ctx.device_memory_bytes()) + " bytes of memory");
    vk::BufferUsageFlags usage = U::eTransferSrc | U::eTransferDst;
    if (kind == BufferKind::Device) usage |= U::eStorageBuffer;
    try {
        buffer_ = vk::raii::Buffer(ctx.device(), vk::BufferCreateInfo({}, size_, usage));
    } catch (const vk::SystemError& e) {  // out of host or device memory
        throw InputError("the device cannot create a buffer of " + std::to_string(size_) + " bytes (" + e.what() + ")");
    }
    auto req = buffer_.getMemoryRequirements();
    std::uint32_t type = kind == BufferKind::Device
                             ? ctx.memory_type(req.memoryTypeBits, M::eDeviceLocal, M::eHostVisible | M::eHostCoherent)
                             : ctx.memory_type(req.memoryTypeBits, M::eHostVisible | M::eHostCoherent, M::eHostCached);
    try {
        memory_ = vk::raii::DeviceMemory(ctx.device(), vk::MemoryAllocateInfo(req.size, type));
    } catch (const vk::SystemError& e) {
        throw InputError("the device cannot allocate " + std::to_string(req.size) + " bytes (" + e.what() + ")");
    }
    buffer_.bindMemory(*memory_, 0);
    // Map only memory that is host-visible and coherent (no flushes needed).
    vk::PhysicalDeviceMemoryProperties mp = ctx.physical().getMemoryProperties();
    auto flags = mp.memoryTypes[type].propertyFlags;
    try {
        if ((flags & M::eHostVisible) && (flags & M::eHostCoherent)) mapped_ = memory_.mapMemory(0, VK_WHOLE_SIZE);
    } catch (const vk::SystemError& e) {
        throw DeviceError("cannot map " + std::to_string(req.size) + " bytes of device memory (" + e.what() + ")");
    }
}

}  // namespace normlab
