#include "normlab/gpu/staging.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>

namespace normlab::gpu {
namespace {

constexpr vk::DeviceSize align16(vk::DeviceSize n) { return (n + 15) & ~vk::DeviceSize{15}; }

}  // namespace

Staging::Staging(const VulkanContext& ctx, CommandRecorder& recorder, vk::DeviceSize capacity)
    : ctx_(&ctx), rec_(&recorder), capacity_(capacity) {
    if (capacity_ == 0) {
        capacity_ = kDefaultCapacity;
        if (const char* e = std::getenv("NORMLAB_STAGING_BYTES"); e && *e) capacity_ = std::strtoull(e, nullptr, 10);
    }
    capacity_ = std::max<vk::DeviceSize>(capacity_ & ~vk::DeviceSize{15}, 32);  // two slots of >= 16 bytes
}

GpuBuffer& Staging::ensure(GpuBuffer& buf, vk::DeviceSize want, BufferRole role) {
    if (!buf || buf.size() < want) {
        buf = GpuBuffer();  // free the old one first
        buf = GpuBuffer(*ctx_, want, role);
    }
    return buf;
}

vk::DeviceSize Staging::slot_bytes(vk::DeviceSize total) const {
    const vk::DeviceSize half = std::max<vk::DeviceSize>((capacity_ / 2) & ~vk::DeviceSize{15}, 16);
    const vk::DeviceSize eighth = std::max(align16((total + 7) / 8), kMinChunk);
    return std::min({half, eighth, align16(total)});
}

std::vector<Staging::Chunk> Staging::pack(const std::vector<Piece>& pieces, vk::DeviceSize slot) {
    std::vector<Chunk> chunks;
    vk::DeviceSize used = slot;  // the first piece opens a chunk
    for (const Piece& p : pieces) {
        for (vk::DeviceSize done = 0; done < p.bytes;) {
            if (used >= slot) {
                chunks.emplace_back();
                used = 0;
            }
            const vk::DeviceSize n = std::min(p.bytes - done, slot - used);
            chunks.back().push_back({used, p.buf, p.offset + done, p.host + done, n});
            done += n;
            used = align16(used + n);  // keep each piece 16-byte aligned
        }
    }
    return chunks;
}

void Staging::transfer(const std::vector<Chunk>& chunks, GpuBuffer& st, vk::DeviceSize slot, bool to_device) {
    static_assert(CommandRecorder::kSlots == 2, "chunks alternate between two slots");
    char* const base = static_cast<char*>(st.data());
    std::array<const Chunk*, 2> in_flight{};
    // Waits for the slot's last chunk: its fence says its copies (and, for a download, the
    // barrier that makes them visible to host reads) are done; a download's chunk is then
    // copied out of the slot to the host.
    auto retire = [&](int s) {
        rec_->wait_slot(s);
        if (!to_device && in_flight[s])
            for (const Piece& p : *in_flight[s]) std::memcpy(p.host, base + s * slot + p.staged, p.bytes);
        in_flight[s] = nullptr;
    };
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const int s = static_cast<int>(i % 2);
        // The slot's previous chunk must be done with its memory before the host (upload) or
        // the device (download) writes it again; meanwhile the other slot's chunk is copying.
        retire(s);
        const vk::DeviceSize at = static_cast<vk::DeviceSize>(s) * slot;
        if (to_device)
            for (const Piece& p : chunks[i]) std::memcpy(base + at + p.staged, p.host, p.bytes);
        // Its first barrier orders earlier submissions (the other slot's chunk, the shaders that
        // wrote a download's sources) before these copies.
        const vk::CommandBuffer cmd = rec_->begin_slot(s);
        for (const Piece& p : chunks[i]) {
            if (to_device)
                cmd.copyBuffer(st.handle(), p.buf, vk::BufferCopy(at + p.staged, p.offset, p.bytes));
            else
                cmd.copyBuffer(p.buf, st.handle(), vk::BufferCopy(p.offset, at + p.staged, p.bytes));
        }
        if (to_device)
            // Orders the staging copies before the shaders and copies that read these buffers.
            memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                           vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                           vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eTransferRead);
        else
            // Makes the copies' writes visible to the host's reads after the fence.
            memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                           vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
        // The submission makes the host's writes to the (coherent) slot visible to the copies.
        rec_->submit_slot(s);
        in_flight[s] = &chunks[i];
        ++submits_;
    }
    // The older chunk first (a download copies them out in order).
    retire(static_cast<int>(chunks.size() % 2));
    retire(static_cast<int>((chunks.size() + 1) % 2));
}

void Staging::upload(const std::vector<HostToDevice>& copies) {
    std::vector<Piece> pieces;
    vk::DeviceSize total = 0;
    for (const auto& c : copies) {
        if (c.bytes == 0) continue;
        if (c.dst->mappable()) {
            std::memcpy(static_cast<char*>(c.dst->data()) + c.offset, c.src, c.bytes);
        } else {
            // The host side of an upload is only read (memcpy from it).
            pieces.push_back(
                {0, c.dst->handle(), c.offset, const_cast<char*>(static_cast<const char*>(c.src)), c.bytes});
            total += align16(c.bytes);
        }
    }
    if (total == 0) return;
    const vk::DeviceSize slot = slot_bytes(total);
    GpuBuffer& st = ensure(up_, total > slot ? 2 * slot : slot, BufferRole::Upload);
    transfer(pack(pieces, slot), st, slot, true);
}

void Staging::download(const std::vector<DeviceToHost>& copies) {
    std::vector<Piece> pieces;
    vk::DeviceSize total = 0;
    for (const auto& c : copies) {
        if (c.bytes == 0 || c.src->mappable()) continue;
        pieces.push_back({0, c.src->handle(), c.offset, static_cast<char*>(c.dst), c.bytes});
        total += align16(c.bytes);
    }
    if (total > 0) {
        const vk::DeviceSize slot = slot_bytes(total);
        GpuBuffer& st = ensure(down_, total > slot ? 2 * slot : slot, BufferRole::Readback);
        transfer(pack(pieces, slot), st, slot, false);
    }
    // Mapped compute buffers: the submission that wrote them ended with a barrier to the host
    // (or was waited for with a fence after a host-visible write), so a memcpy reads them.
    for (const auto& c : copies)
        if (c.bytes != 0 && c.src->mappable())
            std::memcpy(c.dst, static_cast<const char*>(c.src->data()) + c.offset, c.bytes);
}

}  // namespace normlab::gpu
