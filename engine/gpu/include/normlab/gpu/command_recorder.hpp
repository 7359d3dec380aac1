// CommandRecorder: the one way normlab records and submits GPU work — a command pool with one
// primary command buffer, two timestamp queries around the timed part, and submit-and-wait
// with the context's timeout (a device fault becomes a DeviceError, never a hang); and two
// slots of command buffers kept in flight while the host goes on (Staging's double buffering).
// memory_barrier() is the one pipeline-barrier helper; every call site says what it orders.
#pragma once
#include "normlab/gpu/vk_context.hpp"

#include <array>

namespace normlab::gpu {

// Makes `src_access` writes of the `src` stages available and visible to `dst_access` of `dst`.
void memory_barrier(vk::CommandBuffer cmd, vk::PipelineStageFlags src, vk::AccessFlags src_access,
                    vk::PipelineStageFlags dst, vk::AccessFlags dst_access);

class CommandRecorder {
public:
    explicit CommandRecorder(const VulkanContext& ctx);
    ~CommandRecorder();  // waits for submissions still in flight in the slots
    CommandRecorder(const CommandRecorder&) = delete;
    CommandRecorder& operator=(const CommandRecorder&) = delete;

    // Resets and begins the command buffer; the first command orders every earlier
    // submission's writes before this one's reads and writes.
    vk::CommandBuffer begin();
    // Timestamps around the part submit() reports (no-ops on a device without timestamps).
    void start_timer();
    void stop_timer();
    // Ends, submits and waits; returns the GPU milliseconds between the timestamps (0 when
    // none were written or the device has none).
    double submit(std::chrono::milliseconds timeout = std::chrono::milliseconds(60000));

    // Slots: kSlots command buffers, each with its own fence, submitted without waiting so that
    // the host fills or drains one staging buffer while the device copies through another.
    // begin_slot waits for the slot's previous submission, then begins its command buffer with
    // begin()'s first barrier; submit_slot ends and submits it and returns at once; wait_slot
    // waits for it (nothing when none is in flight). Queue order keeps every submission, slot or
    // not, after the ones before it.
    static constexpr int kSlots = 2;
    vk::CommandBuffer begin_slot(int slot);
    void submit_slot(int slot);
    void wait_slot(int slot, std::chrono::milliseconds timeout = std::chrono::milliseconds(60000));

    vk::CommandBuffer cmd() const { return *cmd_; }
    const VulkanContext& context() const { return *ctx_; }

private:
    const VulkanContext* ctx_;
    vk::raii::CommandPool pool_{nullptr};
    vk::raii::CommandBuffer cmd_{nullptr};
    vk::raii::QueryPool queries_{nullptr};
    bool timed_ = false;
    struct Slot {
        vk::raii::CommandBuffer cmd{nullptr};
        vk::raii::Fence fence{nullptr};
        bool in_flight = false;
    };
    std::array<Slot, kSlots> slots_;
};

}  // namespace normlab::gpu
