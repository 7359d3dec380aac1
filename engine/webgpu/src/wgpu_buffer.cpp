#include "normlab/webgpu/wgpu_buffer.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace normlab::webgpu {

WgpuBuffer::WgpuBuffer(const WgpuContext& ctx, std::uint64_t bytes, WGPUBufferUsageFlags usage) : bytes_(bytes) {
    WGPUBufferDescriptor d{};
    d.usage = usage;
    d.size = bytes;
    buffer_ = wgpuDeviceCreateBuffer(ctx.device(), &d);
    if (!buffer_) throw core::DeviceError("WebGPU could not create a buffer of " + std::to_string(bytes) + " bytes");
    generation_ = plan::next_buffer_generation();
}

WgpuBuffer::~WgpuBuffer() {
    if (buffer_) {
        wgpuBufferDestroy(buffer_);
        wgpuBufferRelease(buffer_);
    }
}

WgpuBuffer::WgpuBuffer(WgpuBuffer&& o) noexcept
    : buffer_(std::exchange(o.buffer_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)),
      generation_(std::exchange(o.generation_, 0)) {}

WgpuBuffer& WgpuBuffer::operator=(WgpuBuffer&& o) noexcept {
    if (this != &o) {
        WgpuBuffer old(std::move(*this));
        buffer_ = std::exchange(o.buffer_, nullptr);
        bytes_ = std::exchange(o.bytes_, 0);
        generation_ = std::exchange(o.generation_, 0);
    }
    return *this;
}

void WgpuBuffer::write(const WgpuContext& ctx, const void* data, std::uint64_t bytes) const {
    if (bytes) wgpuQueueWriteBuffer(ctx.queue(), buffer_, 0, data, static_cast<std::size_t>(bytes));
}

void ensure(WgpuBuffer& buf, const WgpuContext& ctx, std::uint64_t bytes, WGPUBufferUsageFlags usage) {
    bytes = std::max<std::uint64_t>((bytes + 15) / 16 * 16, 16);
    if (!buf || buf.size() < bytes) {
        buf = WgpuBuffer();  // free the old memory first
        buf = WgpuBuffer(ctx, bytes, usage);
    }
}

void read_back(const WgpuContext& ctx, std::vector<WgpuBuffer>& staging, const std::vector<Readback>& reads) {
    staging.resize(std::max(staging.size(), reads.size()));
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device(), nullptr);
    for (std::size_t i = 0; i < reads.size(); ++i) {
        const std::uint64_t bytes = (reads[i].bytes + 3) / 4 * 4;
        ensure(staging[i], ctx, bytes, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
        wgpuCommandEncoderCopyBufferToBuffer(enc, reads[i].source->handle(), 0, staging[i].handle(), 0, bytes);
    }
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, nullptr);
    wgpuQueueSubmit(ctx.queue(), 1, &cmd);
    wgpuCommandBufferRelease(cmd);
    wgpuCommandEncoderRelease(enc);

    struct Mapped {
        bool done = false;
        bool ok = false;
    };
    std::vector<Mapped> mapped(reads.size());
    for (std::size_t i = 0; i < reads.size(); ++i) {
        const std::uint64_t bytes = (reads[i].bytes + 3) / 4 * 4;
        wgpuBufferMapAsync(
            staging[i].handle(), WGPUMapMode_Read, 0, static_cast<std::size_t>(bytes),
            [](WGPUBufferMapAsyncStatus status, void* user) {
                auto* m = static_cast<Mapped*>(user);
                m->ok = status == WGPUBufferMapAsyncStatus_Success;
                m->done = true;
                WgpuContext::wake();
            },
            &mapped[i]);
    }
    ctx.wait([&] { return std::all_of(mapped.begin(), mapped.end(), [](const Mapped& m) { return m.done; }); },
             "the readback");
    bool ok = true;
    for (std::size_t i = 0; i < reads.size(); ++i) {
        if (!mapped[i].ok) {
            ok = false;
            continue;
        }
        const std::uint64_t bytes = (reads[i].bytes + 3) / 4 * 4;
        const void* src = wgpuBufferGetConstMappedRange(staging[i].handle(), 0, static_cast<std::size_t>(bytes));
        if (src && reads[i].bytes) std::memcpy(reads[i].dest, src, static_cast<std::size_t>(reads[i].bytes));
        if (!src) ok = false;
        wgpuBufferUnmap(staging[i].handle());
    }
    ctx.throw_if_lost();
    if (!ok) throw core::DeviceError("WebGPU could not map a readback buffer (mapAsync failed)");
}

}  // namespace normlab::webgpu
