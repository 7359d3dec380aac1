// Staging: copies between host memory and compute buffers. Where a compute buffer is mapped
// (integrated GPUs, lavapipe: memory_plan.hpp) a plain memcpy; otherwise through one upload
// and one readback staging buffer that are kept between calls and never grow past
// `capacity` bytes. Each is used as two slots (halves): a transfer goes in chunks of up to one
// slot, and while the device copies one chunk through one slot the host fills (upload) or
// drains (download) the other, so the host's memcpy and the device's copy overlap. Small
// copies share a chunk.
#pragma once
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/gpu_buffer.hpp"

#include <vector>

namespace normlab::gpu {

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
    // One piece of a staged transfer: `bytes` at `staged` in its chunk's slot, to or from the
    // compute buffer `buf` at `offset`, from or to the host at `host`.
    struct Piece {
        vk::DeviceSize staged;
        vk::Buffer buf;
        vk::DeviceSize offset;
        char* host;
        vk::DeviceSize bytes;
    };
    using Chunk = std::vector<Piece>;
    // The chunks of `pieces` (their `staged` unset), each at most `slot` bytes, pieces 16-byte aligned.
    static std::vector<Chunk> pack(const std::vector<Piece>& pieces, vk::DeviceSize slot);
    // The slot size for `total` staged bytes: about an eighth of them (at least kMinChunk), at
    // most half the capacity, no more than they need.
    vk::DeviceSize slot_bytes(vk::DeviceSize total) const;
    // Moves every chunk through the slots of `st`, two in flight at a time.
    void transfer(const std::vector<Chunk>& chunks, GpuBuffer& st, vk::DeviceSize slot, bool to_device);
    GpuBuffer& ensure(GpuBuffer& buf, vk::DeviceSize want, BufferRole role);

    static constexpr vk::DeviceSize kMinChunk = vk::DeviceSize{1} << 20;
    const VulkanContext* ctx_;
    CommandRecorder* rec_;
    vk::DeviceSize capacity_;
    GpuBuffer up_, down_;
    int submits_ = 0;
};

}  // namespace normlab::gpu
