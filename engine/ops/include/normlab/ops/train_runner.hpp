// TrainRunner: runs a TrainProgram (normlab/train/train_program.hpp) on Vulkan. It creates the
// program's buffers (zeroed), uploads the data and initial parameters, compiles one ComputeKernel
// per pass (its descriptor set bound once), and records the step ONCE — a command buffer of one step
// and one of `steps_per_submit` steps, and one of the evaluation — with a barrier between passes.
// The recordings never change (the step index lives in the device's "step" buffer), and are
// replayed: submit() queues them without waiting; finish() waits for the last submission. Each
// recording ends by copying the logs into host-visible readback buffers, so log() reads only those
// scalars; download() reads any buffer (the final parameters), histogram() bins one with the ops' Histogram.
#pragma once
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/gpu_buffer.hpp"
#include "normlab/train/train_device.hpp"
#include "normlab/train/train_program.hpp"

#include <memory>
#include <string>
#include <vector>

namespace normlab::ops {

class Histogram;

class TrainRunner final : public train::TrainDevice {
public:
    TrainRunner(const gpu::VulkanContext& ctx, train::TrainProgram program, int steps_per_submit = 16);
    ~TrainRunner();
    TrainRunner(const TrainRunner&) = delete;
    TrainRunner& operator=(const TrainRunner&) = delete;

    void upload(const std::string& name, const void* data, std::size_t bytes) override;
    void submit(int steps, int eval_every = 0, bool eval_last = false) override;
    bool poll() override;
    void finish() override;
    std::vector<float> log() const override;
    std::vector<float> val_log() const override;
    std::vector<float> download(const std::string& name) override;
    plan::HistogramResult histogram(const std::string& name, std::uint32_t bins) override;
    int steps_run() const override { return steps_; }
    const train::TrainProgram& program() const override { return program_; }

private:
    void record(vk::CommandBuffer cmd, const std::vector<train::TrainPass>& passes,
                const std::vector<std::unique_ptr<gpu::ComputeKernel>>& kernels, int repeats) const;
    void queue(vk::CommandBuffer cmd);
    void fence_pending();
    int index(const std::string& name) const;

    const gpu::VulkanContext* ctx_;
    train::TrainProgram program_;
    int per_submit_;
    int steps_ = 0;
    std::vector<gpu::GpuBuffer> buffers_;
    gpu::GpuBuffer log_read_, val_read_;
    std::vector<std::unique_ptr<gpu::ComputeKernel>> step_kernels_, eval_kernels_;
    gpu::CommandRecorder recorder_;
    vk::raii::CommandPool pool_{nullptr};
    vk::raii::CommandBuffers cmds_{nullptr};  // [0] one step, [1] per_submit steps, [2] evaluation
    vk::raii::Fence fence_{nullptr};
    bool pending_ = false;
    bool fenced_ = false;  // the fenced submission after the pending work is queued
    long long pending_submits_ = 0;
    std::unique_ptr<Histogram> histogram_;  // made when first asked for
};

}  // namespace normlab::ops
