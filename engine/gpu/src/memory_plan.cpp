#include "normlab/gpu/memory_plan.hpp"

#include <functional>

namespace normlab::gpu {
namespace {

using M = vk::MemoryPropertyFlagBits;
const vk::MemoryPropertyFlags kHostRW = M::eHostVisible | M::eHostCoherent;

bool has(vk::MemoryPropertyFlags flags, vk::MemoryPropertyFlags want) { return (flags & want) == want; }

// The device-local heap with the most bytes (the one tensors live in); -1 when none.
int main_device_heap(const vk::PhysicalDeviceMemoryProperties& mp) {
    int best = -1;
    for (std::uint32_t h = 0; h < mp.memoryHeapCount; ++h)
        if ((mp.memoryHeaps[h].flags & vk::MemoryHeapFlagBits::eDeviceLocal) &&
            (best < 0 || mp.memoryHeaps[h].size > mp.memoryHeaps[static_cast<std::uint32_t>(best)].size))
            best = static_cast<int>(h);
    return best;
}

// The first allowed type that passes `ok`, trying each rule in order of preference.
template <typename... Rules>
std::optional<std::uint32_t> first_type(const vk::PhysicalDeviceMemoryProperties& mp, std::uint32_t bits,
                                        Rules... rules) {
    for (const auto& ok : {std::function<bool(std::uint32_t, vk::MemoryPropertyFlags)>(rules)...})
        for (std::uint32_t t = 0; t < mp.memoryTypeCount; ++t)
            if ((bits & (1u << t)) && ok(t, mp.memoryTypes[t].propertyFlags)) return t;
    return std::nullopt;
}

}  // namespace

bool direct_mapping(const vk::PhysicalDeviceMemoryProperties& mp) {
    const int heap = main_device_heap(mp);
    if (heap < 0) return false;
    for (std::uint32_t t = 0; t < mp.memoryTypeCount; ++t)
        if (static_cast<int>(mp.memoryTypes[t].heapIndex) == heap &&
            has(mp.memoryTypes[t].propertyFlags, M::eDeviceLocal | kHostRW | M::eHostCached))
            return true;
    return false;
}

std::optional<MemoryChoice> choose_memory(const vk::PhysicalDeviceMemoryProperties& mp, BufferRole role,
                                          std::uint32_t bits, bool allow_direct) {
    const int heap = main_device_heap(mp);
    auto on_main = [&](std::uint32_t t) { return static_cast<int>(mp.memoryTypes[t].heapIndex) == heap; };
    auto any = [](std::uint32_t, vk::MemoryPropertyFlags) { return true; };
    std::optional<std::uint32_t> t;
    switch (role) {
        case BufferRole::Compute:
            if (allow_direct && direct_mapping(mp)) {
                t = first_type(mp, bits, [&](std::uint32_t i, vk::MemoryPropertyFlags f) {
                    return on_main(i) && has(f, M::eDeviceLocal | kHostRW | M::eHostCached);
                });
                if (t) return MemoryChoice{*t, true};
            }
            t = first_type(
                mp, bits,
                [&](std::uint32_t i, vk::MemoryPropertyFlags f) {
                    return on_main(i) && has(f, M::eDeviceLocal) && !(f & M::eHostVisible);
                },
                [](std::uint32_t, vk::MemoryPropertyFlags f) {
                    return has(f, M::eDeviceLocal) && !(f & M::eHostVisible);
                },
                [&](std::uint32_t i, vk::MemoryPropertyFlags f) { return on_main(i) && has(f, M::eDeviceLocal); },
                [](std::uint32_t, vk::MemoryPropertyFlags f) { return has(f, M::eDeviceLocal); }, any);
            if (t) return MemoryChoice{*t, false};
            return std::nullopt;
        case BufferRole::Upload:
            // Written once by the CPU, read once by a transfer: host memory, write-combined is fine;
            // device-local host-visible memory (a BAR window, often only 256 MiB) only as a last resort.
            t = first_type(
                mp, bits,
                [](std::uint32_t, vk::MemoryPropertyFlags f) {
                    return has(f, kHostRW) && !(f & M::eDeviceLocal) && !(f & M::eHostCached);
                },
                [](std::uint32_t, vk::MemoryPropertyFlags f) { return has(f, kHostRW) && !(f & M::eDeviceLocal); },
                [](std::uint32_t, vk::MemoryPropertyFlags f) { return has(f, kHostRW); });
            break;
        case BufferRole::Readback:
            // Read by the CPU: it must be cached, or every load crosses the bus uncached.
            t = first_type(
                mp, bits,
                [](std::uint32_t, vk::MemoryPropertyFlags f) {
                    return has(f, kHostRW | M::eHostCached) && !(f & M::eDeviceLocal);
                },
                [](std::uint32_t, vk::MemoryPropertyFlags f) { return has(f, kHostRW | M::eHostCached); },
                [](std::uint32_t, vk::MemoryPropertyFlags f) { return has(f, kHostRW); });
            break;
    }
    if (t) return MemoryChoice{*t, true};
    return std::nullopt;
}

std::string describe_memory(const vk::PhysicalDeviceMemoryProperties& mp, bool allow_direct) {
    auto name = [&](BufferRole r) {
        auto c = choose_memory(mp, r, ~0u, allow_direct);
        if (!c) return std::string("none");
        auto f = mp.memoryTypes[c->type].propertyFlags;
        std::string s = "type " + std::to_string(c->type) + " (";
        std::string sep;
        auto add = [&](bool on, const char* what) {
            if (on) s += sep + what, sep = ", ";
        };
        add(bool(f & M::eDeviceLocal), "device-local");
        add(bool(f & M::eHostVisible), "host-visible");
        add(bool(f & M::eHostCached), "cached");
        return s + ")";
    };
    if (allow_direct && direct_mapping(mp)) return "compute buffers mapped directly: " + name(BufferRole::Compute);
    return "compute: " + name(BufferRole::Compute) + "; uploads staged in " + name(BufferRole::Upload) +
           "; readbacks in " + name(BufferRole::Readback);
}

}  // namespace normlab::gpu
