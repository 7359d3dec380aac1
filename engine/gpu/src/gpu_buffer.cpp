#include "normlab/gpu/gpu_buffer.hpp"

#include <algorithm>

#include "normlab/core/error.hpp"

namespace normlab::gpu {

GpuBuffer::GpuBuffer(const VulkanContext& ctx, vk::DeviceSize bytes, BufferRole role) : role_(role) {
    using U = vk::BufferUsageFlagBits;
    size_ = bytes == 0 ? 4 : bytes;
    if (size_ > ctx.device_memory_bytes())
        throw core::InputError("a buffer of " + std::to_string(size_) + " bytes does not fit the device's " +
                               std::to_string(ctx.device_memory_bytes()) + " bytes of memory");
    vk::BufferUsageFlags usage = U::eTransferSrc | U::eTransferDst;
    if (role == BufferRole::Compute) usage |= U::eStorageBuffer;
    try {
        buffer_ = vk::raii::Buffer(ctx.device(), vk::BufferCreateInfo({}, size_, usage));
    } catch (const vk::SystemError& e) {  // out of host or device memory
        throw core::InputError("the device cannot create a buffer of " + std::to_string(size_) + " bytes (" + e.what() +
                               ")");
    }
    auto req = buffer_.getMemoryRequirements();
    auto choice = choose_memory(ctx.memory_properties(), role, req.memoryTypeBits, ctx.direct_mapping_allowed());
    if (!choice)
        throw core::DeviceError("the Vulkan device has no memory type for a " +
                                std::string(role == BufferRole::Compute ? "compute" : "staging") + " buffer");
    try {
        memory_ = vk::raii::DeviceMemory(ctx.device(), vk::MemoryAllocateInfo(req.size, choice->type));
    } catch (const vk::SystemError& e) {
        throw core::InputError("the device cannot allocate " + std::to_string(req.size) + " bytes (" + e.what() + ")");
    }
    buffer_.bindMemory(*memory_, 0);
    // Every mapped type is host-visible and coherent (memory_plan.cpp): no flushes needed.
    try {
        if (choice->mapped) mapped_ = memory_.mapMemory(0, VK_WHOLE_SIZE);
    } catch (const vk::SystemError& e) {
        throw core::DeviceError("cannot map " + std::to_string(req.size) + " bytes of device memory (" + e.what() +
                                ")");
    }
    generation_ = plan::next_buffer_generation();
}

bool ensure_compute_buffer(const VulkanContext& ctx, GpuBuffer& buf, vk::DeviceSize bytes) {
    bytes = std::max<vk::DeviceSize>(bytes, 16);
    if (buf && buf.size() >= bytes) return false;
    buf = GpuBuffer();  // free the old memory first
    buf = GpuBuffer(ctx, bytes, BufferRole::Compute);
    return true;
}

}  // namespace normlab::gpu
