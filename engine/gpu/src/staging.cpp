#include "normlab/staging.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace normlab {

Staging::Staging(const VulkanContext& ctx, CommandRecorder& recorder, vk::DeviceSize capacity)
    : ctx_(&ctx), rec_(&recorder), capacity_(capacity) {
    if (capacity_ == 0) {
        capacity_ = kDefaultCapacity;
        if (const char* e = std::getenv("NORMLAB_STAGING_BYTES"); e && *e) capacity_ = std::strtoull(e, nullptr, 10);
    }
    capacity_ = std::max<vk::DeviceSize>(capacity_ & ~vk::DeviceSize{15}, 16);
}

GpuBuffer& Staging::ensure(GpuBuffer& buf, vk::DeviceSize want, BufferRole role) {
    want = std::min(capacity_, std::max<vk::DeviceSize>(want, 16));
    if (!buf || buf.size() < want) {
        buf = GpuBuffer();  // free the old one first
        buf = GpuBuffer(*ctx_, want, role);
    }
    return buf;
}

void Staging::upload(const std::vector<HostToDevice>& copies) {
    vk::DeviceSize total = 0;
    for (const auto& c : copies) {
        if (c.bytes == 0) continue;
        if (c.dst->mappable())
            std::memcpy(static_cast<char*>(c.dst->data()) + c.offset, c.src, c.bytes);
        else
            total += c.bytes;
    }
    if (total == 0) return;
    GpuBuffer& st = ensure(up_, total, BufferRole::Upload);
    vk::DeviceSize used = 0;
    vk::CommandBuffer cmd{};
    auto flush = [&] {
        if (!cmd) return;
        // Orders the staging copies before the shaders and copies that read these buffers.
        memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                       vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                       vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eTransferRead);
        rec_->submit();
        ++submits_;
        cmd = vk::CommandBuffer{};
        used = 0;
    };
    for (const auto& c : copies) {
        if (c.bytes == 0 || c.dst->mappable()) continue;
        for (vk::DeviceSize done = 0; done < c.bytes;) {
            if (used == st.size()) flush();
            if (!cmd) cmd = rec_->begin();
            const vk::DeviceSize n = std::min(c.bytes - done, st.size() - used);
            std::memcpy(static_cast<char*>(st.data()) + used, static_cast<const char*>(c.src) + done, n);
            cmd.copyBuffer(st.handle(), c.dst->handle(), vk::BufferCopy(used, c.offset + done, n));
            done += n;
            used = (used + n + 15) & ~vk::DeviceSize{15};  // keep each piece 16-byte aligned
            used = std::min(used, st.size());
        }
    }
    flush();
}

void Staging::download(const std::vector<DeviceToHost>& copies) {
    vk::DeviceSize total = 0;
    for (const auto& c : copies) {
        if (c.bytes == 0) continue;
        if (!c.src->mappable()) total += c.bytes;
    }
    if (total > 0) {
        GpuBuffer& st = ensure(down_, total, BufferRole::Readback);
        struct Piece {
            vk::DeviceSize staged;
            void* dst;
            vk::DeviceSize bytes;
        };
        std::vector<Piece> pending;
        vk::DeviceSize used = 0;
        vk::CommandBuffer cmd{};
        auto flush = [&] {
            if (!cmd) return;
            // Makes the copies' writes visible to the host's reads after the fence.
            memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                           vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
            rec_->submit();
            ++submits_;
            for (const auto& p : pending) std::memcpy(p.dst, static_cast<const char*>(st.data()) + p.staged, p.bytes);
            pending.clear();
            cmd = vk::CommandBuffer{};
            used = 0;
        };
        for (const auto& c : copies) {
            if (c.bytes == 0 || c.src->mappable()) continue;
            for (vk::DeviceSize done = 0; done < c.bytes;) {
                if (used == st.size()) flush();
                if (!cmd) cmd = rec_->begin();  // its first barrier orders the shaders' writes before these copies
                const vk::DeviceSize n = std::min(c.bytes - done, st.size() - used);
                cmd.copyBuffer(c.src->handle(), st.handle(), vk::BufferCopy(c.offset + done, used, n));
                pending.push_back({used, static_cast<char*>(c.dst) + done, n});
                done += n;
                used = std::min((used + n + 15) & ~vk::DeviceSize{15}, st.size());
            }
        }
        flush();
    }
    // Mapped compute buffers: the submission that wrote them ended with a barrier to the host
    // (or was waited for with a fence after a host-visible write), so a memcpy reads them.
    for (const auto& c : copies)
        if (c.bytes != 0 && c.src->mappable())
            std::memcpy(c.dst, static_cast<const char*>(c.src->data()) + c.offset, c.bytes);
}

}  // namespace normlab
