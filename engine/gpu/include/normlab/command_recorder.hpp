// CommandRecorder: the one way normlab records and submits GPU work — a command pool with one
// primary command buffer, two timestamp queries around the timed part, and submit-and-wait
// with the context's timeout (a device fault becomes a DeviceError, never a hang).
// memory_barrier() is the one pipeline-barrier helper; every call site says what it orders.
#pragma once
#include "normlab/vk_context.hpp"

namespace normlab {

// Makes `src_access` writes of the `src` stages available and visible to `dst_access` of `dst`.
void memory_barrier(vk::CommandBuffer cmd, vk::PipelineStageFlags src, vk::AccessFlags src_access,
                    vk::PipelineStageFlags dst, vk::AccessFlags dst_access);

class CommandRecorder {
public:
    explicit CommandRecorder(const VulkanContext& ctx);

    // Resets and begins the command buffer; the first command orders every earlier
    // submission's writes before this one's reads and writes.
    vk::CommandBuffer begin();
    // Timestamps around the part submit() reports (no-ops on a device without timestamps).
    void start_timer();
    void stop_timer();
    // Ends, submits and waits; returns the GPU milliseconds between the timestamps (0 when
    // none were written or the device has none).
    double submit(std::chrono::milliseconds timeout = std::chrono::milliseconds(60000));
    vk::CommandBuffer cmd() const { return *cmd_; }
    const VulkanContext& context() const { return *ctx_; }

private:
    const VulkanContext* ctx_;
    vk::raii::CommandPool pool_{nullptr};
    vk::raii::CommandBuffer cmd_{nullptr};
    vk::raii::QueryPool queries_{nullptr};
    bool timed_ = false;
};

}  // namespace normlab
