// WgpuBuffer: one WebGPU buffer (storage, uniform or readback), released on destruction, and
// a blocking readback of device buffers into host memory.
#pragma once
#include "normlab/plan/buffer_generation.hpp"
#include "normlab/webgpu/wgpu_context.hpp"

#include <cstdint>
#include <vector>

namespace normlab::webgpu {

class WgpuBuffer {
public:
    WgpuBuffer() = default;
    WgpuBuffer(const WgpuContext& ctx, std::uint64_t bytes, WGPUBufferUsageFlags usage);
    ~WgpuBuffer();
    WgpuBuffer(WgpuBuffer&& o) noexcept;
    WgpuBuffer& operator=(WgpuBuffer&& o) noexcept;
    WgpuBuffer(const WgpuBuffer&) = delete;
    WgpuBuffer& operator=(const WgpuBuffer&) = delete;

    WGPUBuffer handle() const { return buffer_; }
    // This buffer's number (normlab/plan/buffer_generation.hpp): a re-created buffer has a new one even
    // where the browser hands back the old handle. 0 for no buffer.
    std::uint64_t generation() const { return generation_; }
    std::uint64_t size() const { return bytes_; }
    explicit operator bool() const { return buffer_ != nullptr; }

    // Copies bytes (a multiple of 4) from host memory into the buffer at offset 0.
    void write(const WgpuContext& ctx, const void* data, std::uint64_t bytes) const;

private:
    WGPUBuffer buffer_ = nullptr;
    std::uint64_t bytes_ = 0;
    std::uint64_t generation_ = 0;
};

// Grows `buf` to at least `bytes` (at least 16); its contents are lost when it grows.
void ensure(WgpuBuffer& buf, const WgpuContext& ctx, std::uint64_t bytes, WGPUBufferUsageFlags usage);

// A device buffer's first `bytes` and where they go on the host.
struct Readback {
    const WgpuBuffer* source;
    void* dest;
    std::uint64_t bytes;
};
// Copies each source through a mappable buffer of `staging` (grown as needed) and waits.
void read_back(const WgpuContext& ctx, std::vector<WgpuBuffer>& staging, const std::vector<Readback>& reads);

}  // namespace normlab::webgpu
