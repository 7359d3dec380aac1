// The VkPipelineCache kept between runs, so that a driver that caches compiled pipelines does
// not compile them again at every launch: one file per device and driver under
// <cache_directory()>/, named by vendorID, deviceID, driverVersion and pipelineCacheUUID. Before
// the data reaches vkCreatePipelineCache its header is checked as the Vulkan spec describes
// (VkPipelineCacheHeaderVersionOne: length, version, vendor, device, UUID); a file that fails
// any check is ignored and replaced at the next save.
#pragma once
#include "normlab/gpu/cache_file.hpp"

#include <vulkan/vulkan_raii.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace normlab::gpu {

// True when `data` starts with a VkPipelineCacheHeaderVersionOne made for this device.
bool pipeline_cache_header_matches(std::string_view data, const vk::PhysicalDeviceProperties& device);
// The cache file's path and the key its frame carries (cache_file.hpp), for this device.
std::string pipeline_cache_path(const std::string& dir, const vk::PhysicalDeviceProperties& device);
Digest pipeline_cache_key(const vk::PhysicalDeviceProperties& device);
extern const std::string_view kPipelineCacheMagic;

class PipelineCacheStore {
public:
    // Creates the cache from the file in `dir` when it is valid for `device`, else empty. Never
    // throws for a bad file; without `dir` nothing is read or written.
    PipelineCacheStore(const vk::raii::Device& dev, const vk::PhysicalDeviceProperties& device,
                       std::optional<std::string> dir);
    ~PipelineCacheStore();  // save()
    PipelineCacheStore(const PipelineCacheStore&) = delete;
    PipelineCacheStore& operator=(const PipelineCacheStore&) = delete;

    const vk::raii::PipelineCache& cache() const { return cache_; }
    // Writes the cache's data when it changed since it was loaded, merged with what another
    // process saved meanwhile; atomically, failures ignored.
    void save() noexcept;

private:
    const vk::raii::Device* dev_;
    vk::PhysicalDeviceProperties device_;
    std::optional<std::string> path_;
    std::string loaded_;  // the data as read (or empty)
    vk::raii::PipelineCache cache_{nullptr};
};

}  // namespace normlab::gpu
