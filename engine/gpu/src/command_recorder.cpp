#include "normlab/gpu/command_recorder.hpp"

namespace normlab::gpu {

void memory_barrier(vk::CommandBuffer cmd, vk::PipelineStageFlags src, vk::AccessFlags src_access,
                    vk::PipelineStageFlags dst, vk::AccessFlags dst_access) {
    vk::MemoryBarrier mb(src_access, dst_access);
    cmd.pipelineBarrier(src, dst, {}, mb, {}, {});
}

CommandRecorder::CommandRecorder(const VulkanContext& ctx) : ctx_(&ctx) {
    pool_ = vk::raii::CommandPool(
        ctx.device(),
        vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer, ctx.queue_family()));
    vk::raii::CommandBuffers bufs(ctx.device(),
                                  vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 1));
    cmd_ = std::move(bufs.front());
    if (ctx.timestamps())
        queries_ = vk::raii::QueryPool(ctx.device(), vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2));
}

namespace {
// Resets and begins `cmd` with the barrier every submission starts with.
void begin_buffer(vk::CommandBuffer cmd) {
    cmd.reset();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    // Orders every earlier submission's writes (shaders, copies, fills) before this submission's
    // reads and writes: a fence wait orders execution on the host, not device memory.
    memory_barrier(cmd, vk::PipelineStageFlagBits::eAllCommands, vk::AccessFlagBits::eMemoryWrite,
                   vk::PipelineStageFlagBits::eAllCommands,
                   vk::AccessFlagBits::eMemoryRead | vk::AccessFlagBits::eMemoryWrite);
}
}  // namespace

CommandRecorder::~CommandRecorder() {
    // A slot still in flight (a transfer cut short by an exception) must finish before its
    // command buffer is freed; a device that failed is not waited for again.
    for (int s = 0; s < kSlots; ++s) {
        try {
            wait_slot(s, std::chrono::milliseconds(5000));
        } catch (...) {}
    }
}

vk::CommandBuffer CommandRecorder::begin() {
    const vk::CommandBuffer cmd = *cmd_;
    begin_buffer(cmd);
    timed_ = false;
    return cmd;
}

vk::CommandBuffer CommandRecorder::begin_slot(int slot) {
    Slot& s = slots_.at(static_cast<std::size_t>(slot));
    if (!*s.fence) {
        vk::raii::CommandBuffers bufs(ctx_->device(),
                                      vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 1));
        s.cmd = std::move(bufs.front());
        s.fence = vk::raii::Fence(ctx_->device(), vk::FenceCreateInfo{});
    }
    wait_slot(slot);  // the command buffer may be reset only when its last submission is done
    begin_buffer(*s.cmd);
    return *s.cmd;
}

void CommandRecorder::submit_slot(int slot) {
    Slot& s = slots_.at(static_cast<std::size_t>(slot));
    s.cmd.end();
    ctx_->submit(*s.cmd, *s.fence);
    s.in_flight = true;
}

void CommandRecorder::wait_slot(int slot, std::chrono::milliseconds timeout) {
    Slot& s = slots_.at(static_cast<std::size_t>(slot));
    if (!s.in_flight) return;
    s.in_flight = false;  // a failed wait marks the context faulted: never waited for again
    ctx_->wait(*s.fence, timeout);
}

void CommandRecorder::start_timer() {
    if (!*queries_) return;
    cmd_.resetQueryPool(*queries_, 0, 2);
    cmd_.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *queries_, 0);
    timed_ = true;
}

void CommandRecorder::stop_timer() {
    if (timed_) cmd_.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 1);
}

double CommandRecorder::submit(std::chrono::milliseconds timeout) {
    cmd_.end();
    ctx_->submit_and_wait(*cmd_, timeout);
    if (!timed_) return 0.0;
    timed_ = false;
    auto [res, ts] = queries_.getResults<std::uint64_t>(0, 2, 2 * sizeof(std::uint64_t), sizeof(std::uint64_t),
                                                        vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
    if (res != vk::Result::eSuccess || ts[1] < ts[0]) return 0.0;
    return static_cast<double>(ts[1] - ts[0]) * ctx_->timestamp_period_ns() * 1e-6;
}

}  // namespace normlab::gpu
