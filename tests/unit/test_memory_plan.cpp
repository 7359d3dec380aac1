// Where buffers live (memory_plan.hpp), checked against the memory tables of real devices.
// Sources: the NVIDIA H200 table is from vulkaninfo on the H200 machine (driver 580.159.04,
// resizable BAR over the whole VRAM heap); the others are the layouts these drivers report,
// as listed in public vulkaninfo reports of the named devices: an NVIDIA RTX 3080 without
// resizable BAR (driver 535, a 256 MiB BAR heap), an AMD RX 6800 on RADV (Mesa 22, no
// Smart Access Memory: a 256 MiB visible-VRAM heap, plus the AMD device-coherent types),
// an Intel UHD 620 on ANV (Mesa 22, one heap of system RAM) and lavapipe (Mesa 22.3.6,
// read on this project's build machine).
#include <catch2/catch.hpp>

#include "normlab/gpu/memory_plan.hpp"

#include <initializer_list>
#include <utility>

using namespace normlab;

namespace {

using M = vk::MemoryPropertyFlagBits;
constexpr vk::MemoryPropertyFlags kNone{};
const vk::MemoryPropertyFlags DL = M::eDeviceLocal, HV = M::eHostVisible, HC = M::eHostCoherent, HCa = M::eHostCached;

struct Heap {
    vk::DeviceSize gib_x100;  // size in hundredths of a GiB
    bool device_local;
};

vk::PhysicalDeviceMemoryProperties table(
    std::initializer_list<Heap> heaps, std::initializer_list<std::pair<std::uint32_t, vk::MemoryPropertyFlags>> types) {
    vk::PhysicalDeviceMemoryProperties mp{};
    for (const Heap& h : heaps) {
        auto& out = mp.memoryHeaps[mp.memoryHeapCount++];
        out.size = h.gib_x100 * (vk::DeviceSize{1} << 30) / 100;
        if (h.device_local) out.flags = vk::MemoryHeapFlagBits::eDeviceLocal;
    }
    for (const auto& [heap, flags] : types) {
        auto& out = mp.memoryTypes[mp.memoryTypeCount++];
        out.heapIndex = heap;
        out.propertyFlags = flags;
    }
    return mp;
}

std::uint32_t type_of(const vk::PhysicalDeviceMemoryProperties& mp, gpu::BufferRole role, std::uint32_t bits = ~0u) {
    auto c = gpu::choose_memory(mp, role, bits);
    REQUIRE(c.has_value());
    return c->type;
}
bool mapped(const vk::PhysicalDeviceMemoryProperties& mp, gpu::BufferRole role) {
    auto c = gpu::choose_memory(mp, role);
    REQUIRE(c.has_value());
    return c->mapped;
}

}  // namespace

TEST_CASE("NVIDIA H200 with resizable BAR: compute in VRAM that is not host-visible", "[memory]") {
    auto mp = table({{14040, true}, {9440, false}},
                    {{1, kNone}, {0, DL}, {1, HV | HC}, {1, HV | HC | HCa}, {0, DL | HV | HC}});
    CHECK_FALSE(gpu::direct_mapping(mp));
    CHECK(type_of(mp, gpu::BufferRole::Compute) == 1);  // not 4: the CPU would read it across PCIe uncached
    CHECK_FALSE(mapped(mp, gpu::BufferRole::Compute));
    CHECK(type_of(mp, gpu::BufferRole::Upload) == 2);
    CHECK(type_of(mp, gpu::BufferRole::Readback) == 3);
    CHECK(mapped(mp, gpu::BufferRole::Upload));
    CHECK(mapped(mp, gpu::BufferRole::Readback));
    // A buffer that only type 4 can hold still gets it (the device-local fallback).
    CHECK(type_of(mp, gpu::BufferRole::Compute, 1u << 4) == 4);
}

TEST_CASE("NVIDIA RTX 3080 without resizable BAR (256 MiB BAR heap)", "[memory]") {
    auto mp = table({{1000, true}, {3100, false}, {25, true}},
                    {{1, kNone}, {0, DL}, {1, HV | HC}, {1, HV | HC | HCa}, {2, DL | HV | HC}});
    CHECK_FALSE(gpu::direct_mapping(mp));
    CHECK(type_of(mp, gpu::BufferRole::Compute) == 1);
    CHECK(type_of(mp, gpu::BufferRole::Upload) == 2);  // host memory, not the small BAR window
    CHECK(type_of(mp, gpu::BufferRole::Readback) == 3);
}

TEST_CASE("AMD RX 6800 on RADV (256 MiB visible VRAM, device-coherent types)", "[memory]") {
    const vk::MemoryPropertyFlags coherent_amd = M::eDeviceCoherentAMD | M::eDeviceUncachedAMD;
    auto mp = table({{1575, true}, {1570, false}, {25, true}}, {{0, DL},
                                                                {1, HV | HC},
                                                                {2, DL | HV | HC},
                                                                {1, HV | HC | HCa},
                                                                {0, DL | coherent_amd},
                                                                {1, HV | HC | coherent_amd},
                                                                {2, DL | HV | HC | coherent_amd},
                                                                {1, HV | HC | HCa | coherent_amd}});
    CHECK_FALSE(gpu::direct_mapping(mp));
    CHECK(type_of(mp, gpu::BufferRole::Compute) == 0);
    CHECK(type_of(mp, gpu::BufferRole::Upload) == 1);
    CHECK(type_of(mp, gpu::BufferRole::Readback) == 3);
    // Only the device-coherent types allowed: still device-local, still a cached readback.
    CHECK(type_of(mp, gpu::BufferRole::Compute, 0xF0u) == 4);
    CHECK(type_of(mp, gpu::BufferRole::Readback, 0xF0u) == 7);
}

TEST_CASE("Intel UHD 620 on ANV (integrated: one heap of system RAM)", "[memory]") {
    auto mp = table({{1160, true}}, {{0, DL}, {0, DL | HV | HC}, {0, DL | HV | HC | HCa}});
    CHECK(gpu::direct_mapping(mp));
    CHECK(type_of(mp, gpu::BufferRole::Compute) == 2);  // host-cached: the CPU reads it at memory speed
    CHECK(mapped(mp, gpu::BufferRole::Compute));
    CHECK(type_of(mp, gpu::BufferRole::Readback) == 2);
}

TEST_CASE("lavapipe (CPU device): compute buffers mapped directly", "[memory]") {
    auto mp = table({{2350, true}}, {{0, DL | HV | HC | HCa}});
    CHECK(gpu::direct_mapping(mp));
    CHECK(type_of(mp, gpu::BufferRole::Compute) == 0);
    CHECK(mapped(mp, gpu::BufferRole::Compute));
    CHECK(type_of(mp, gpu::BufferRole::Upload) == 0);
    CHECK(type_of(mp, gpu::BufferRole::Readback) == 0);
    // NORMLAB_MEMORY=staged: the same type, not mapped, so the staged path runs on lavapipe.
    auto staged = gpu::choose_memory(mp, gpu::BufferRole::Compute, ~0u, /*allow_direct=*/false);
    REQUIRE(staged);
    CHECK(staged->type == 0);
    CHECK_FALSE(staged->mapped);
    CHECK_THAT(gpu::describe_memory(mp), Catch::Contains("mapped directly"));
    CHECK_THAT(gpu::describe_memory(mp, false), Catch::Contains("uploads staged"));
}

TEST_CASE("no allowed type: no choice", "[memory]") {
    auto mp = table({{1000, true}, {3100, false}}, {{0, DL}, {1, HV | HC | HCa}});
    CHECK_FALSE(gpu::choose_memory(mp, gpu::BufferRole::Readback, 1u << 0).has_value());  // type 0 is not host-visible
    CHECK_FALSE(gpu::choose_memory(mp, gpu::BufferRole::Compute, 0u).has_value());
    CHECK(type_of(mp, gpu::BufferRole::Upload) == 1);  // cached host memory when there is nothing else
}
