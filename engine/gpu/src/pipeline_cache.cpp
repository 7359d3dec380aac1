// The persistent VkPipelineCache (pipeline_cache.hpp).
#include "normlab/gpu/pipeline_cache.hpp"

#include <cstdio>
#include <cstring>

namespace normlab::gpu {

const std::string_view kPipelineCacheMagic = "NLPIPEC1";

namespace {

std::uint32_t read_u32(std::string_view data, std::size_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, data.data() + at, 4);  // the header is in the device's (this host's) byte order
    return v;
}

std::string hex32(std::uint32_t v) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", v);
    return buf;
}

// A pipeline cache made from `data` (checked by the caller), or an empty one.
vk::raii::PipelineCache create_cache(const vk::raii::Device& dev, const std::string& data) {
    if (!data.empty()) {
        try {
            return vk::raii::PipelineCache(dev, vk::PipelineCacheCreateInfo({}, data.size(), data.data()));
        } catch (const vk::SystemError&) {
            // The driver refused the data after all: start empty.
        }
    }
    return vk::raii::PipelineCache(dev, vk::PipelineCacheCreateInfo{});
}

// The cache data stored in `path` for this device, or empty.
std::string load(const std::string& path, const vk::PhysicalDeviceProperties& device) {
    auto data = read_cache_entry(path, kPipelineCacheMagic, pipeline_cache_key(device));
    if (!data || !pipeline_cache_header_matches(*data, device)) return {};
    return std::move(*data);
}

}  // namespace

bool pipeline_cache_header_matches(std::string_view data, const vk::PhysicalDeviceProperties& device) {
    // VkPipelineCacheHeaderVersionOne: headerSize, headerVersion, vendorID, deviceID (uint32 each),
    // pipelineCacheUUID[VK_UUID_SIZE]: 32 bytes, and the specification requires headerSize to be 32
    // (a driver's cache data follows the header, so a larger size would still fit inside the data).
    constexpr std::size_t kHeaderOne = 16 + VK_UUID_SIZE;
    if (data.size() < kHeaderOne) return false;
    if (read_u32(data, 0) != kHeaderOne) return false;
    if (read_u32(data, 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) return false;
    if (read_u32(data, 8) != device.vendorID || read_u32(data, 12) != device.deviceID) return false;
    return std::memcmp(data.data() + 16, device.pipelineCacheUUID.data(), VK_UUID_SIZE) == 0;
}

Digest pipeline_cache_key(const vk::PhysicalDeviceProperties& device) {
    Hasher h;
    h.add(kPipelineCacheMagic).add(device.vendorID).add(device.deviceID).add(device.driverVersion);
    h.add(std::string_view(reinterpret_cast<const char*>(device.pipelineCacheUUID.data()), VK_UUID_SIZE));
    return h.digest();
}

std::string pipeline_cache_path(const std::string& dir, const vk::PhysicalDeviceProperties& device) {
    std::string uuid;
    for (std::uint8_t byte : device.pipelineCacheUUID) {
        char buf[3];
        std::snprintf(buf, sizeof buf, "%02x", byte);
        uuid += buf;
    }
    return dir + "/pipelines-" + hex32(device.vendorID) + "-" + hex32(device.deviceID) + "-" +
           hex32(device.driverVersion) + "-" + uuid + ".bin";
}

PipelineCacheStore::PipelineCacheStore(const vk::raii::Device& dev, const vk::PhysicalDeviceProperties& device,
                                       std::optional<std::string> dir)
    : dev_(&dev), device_(device) {
    if (dir) {
        path_ = pipeline_cache_path(*dir, device);
        loaded_ = load(*path_, device);
    }
    cache_ = create_cache(dev, loaded_);
}

PipelineCacheStore::~PipelineCacheStore() { save(); }

void PipelineCacheStore::save() noexcept {
    if (!path_) return;
    try {
        auto data = cache_.getData();
        std::string now(reinterpret_cast<const char*>(data.data()), data.size());
        if (now == loaded_ || !pipeline_cache_header_matches(now, device_)) return;
        // Another process (ctest -j, a second window) may have saved pipelines this one lacks.
        if (std::string theirs = load(*path_, device_); !theirs.empty() && theirs != loaded_) {
            vk::raii::PipelineCache other = create_cache(*dev_, theirs);
            cache_.merge(*other);
            data = cache_.getData();
            now.assign(reinterpret_cast<const char*>(data.data()), data.size());
        }
        write_cache_entry(*path_, kPipelineCacheMagic, pipeline_cache_key(device_), now);
        loaded_ = std::move(now);
    } catch (...) {
        // Saving is an optimization; the device may be lost by now.
    }
}

}  // namespace normlab::gpu
