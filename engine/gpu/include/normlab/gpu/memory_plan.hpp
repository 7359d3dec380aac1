// MemoryPlan: where each kind of buffer lives on a device, decided from its memory table
// alone (a pure function, so it is unit-tested against recorded tables of real devices).
//
//   - Compute buffers (x, y, statistics, …) are device-local. On a device whose main
//     device-local heap is also host-visible, coherent and cached (integrated GPUs, lavapipe)
//     they are mapped and the CPU reads and writes them directly, with no extra copy.
//     Otherwise they go in device-local memory that is not host-visible where the device has
//     it, never in a PCIe BAR window the CPU would read uncached.
//   - Uploads go through a host-visible, coherent staging buffer (host memory preferred).
//   - Readbacks go through a host-visible, coherent, host-cached staging buffer.
#pragma once
#include <vulkan/vulkan.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace normlab::gpu {

enum class BufferRole { Compute, Upload, Readback };

struct MemoryChoice {
    std::uint32_t type = 0;  // memory type index
    bool mapped = false;     // the CPU maps the buffer and reads/writes it directly
};

// The memory type for a buffer of `role`, among the types allowed by `type_bits` (a buffer's
// VkMemoryRequirements::memoryTypeBits; ~0u: any). Empty when no allowed type can hold it.
// allow_direct = false stages even where compute buffers could be mapped (the tests run the
// staged path on lavapipe that way: NORMLAB_MEMORY=staged).
std::optional<MemoryChoice> choose_memory(const vk::PhysicalDeviceMemoryProperties& mp, BufferRole role,
                                          std::uint32_t type_bits = ~0u, bool allow_direct = true);

// True when compute buffers are mapped directly (no staging copies on this device).
bool direct_mapping(const vk::PhysicalDeviceMemoryProperties& mp);

// One line for --list-devices and the benchmark: "compute: type 1 (device-local), …".
std::string describe_memory(const vk::PhysicalDeviceMemoryProperties& mp, bool allow_direct = true);

}  // namespace normlab::gpu
