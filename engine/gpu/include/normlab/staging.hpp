// Staging: copies between host memory and compute buffers. Where a compute buffer is mapped
// (integrated GPUs, lavapipe: memory_plan.hpp) a plain memcpy; otherwise through one upload
// and one readback staging buffer that are kept between calls and never grow past
// `capacity` bytes: larger transfers go in chunks, one submit per chunk, and small ones
// share a submit.
#pragma once
#include "normlab/command_recorder.hpp"
#include "normlab/gpu_buffer.hpp"

#include <vector>

namespace normlab {

struct HostToDevice {
    const GpuBuffer* dst;
    vk::DeviceSize offset;
    const void* src;
    vk::DeviceSize bytes;
};
struct DeviceToHost {
    const GpuBuffer* src;
    vk::DeviceSize offset;
    void* dst;
    vk::DeviceSize bytes;
};

class Staging {
public:
    static constexpr vk::DeviceSize kDefaultCapacity = vk::DeviceSize{64} << 20;
    // capacity 0: kDefaultCapacity, or NORMLAB_STAGING_BYTES (tests force small chunks).
    Staging(const VulkanContext& ctx, CommandRecorder& recorder, vk::DeviceSize capacity = 0);

    // Every copy is complete when these return. The caller makes sure no submitted work still
    // writes the destinations (uploads) or has not finished writing the sources (downloads
    // are ordered after earlier submissions by CommandRecorder::begin).
    void upload(const std::vector<HostToDevice>& copies);
    void download(const std::vector<DeviceToHost>& copies);
    vk::DeviceSize capacity() const { return capacity_; }
    int submits() const { return submits_; }  // staged submissions so far (tests)

private:
    GpuBuffer& ensure(GpuBuffer& buf, vk::DeviceSize want, BufferRole role);

    const VulkanContext* ctx_;
    CommandRecorder* rec_;
    vk::DeviceSize capacity_;
    GpuBuffer up_, down_;
    int submits_ = 0;
};

}  // namespace normlab
