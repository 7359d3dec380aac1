// The Vulkan runner of a TrainProgram (train_runner.hpp).
#include "normlab/ops/train_runner.hpp"

#include "normlab/core/error.hpp"
#include "normlab/gpu/staging.hpp"
#include "normlab/ops/histogram.hpp"

#include <algorithm>
#include <cstring>

namespace normlab::ops {
namespace {

vk::DeviceSize buffer_bytes(const train::TrainBuffer& b) { return std::max<vk::DeviceSize>(16, b.elements * 4); }

// The training kernels' macros: NL_SUBGROUP_ARITH where the device has subgroup arithmetic (workgroup
// sums with one barrier, not a tree's: shaders/workgroup_sum.glsl) and NL_SUBGROUP_BALLOT where it also has
// ballots (a convolution's subgroup loads its weights once, shaders/conv_weights.glsl); neither where
// subgroup operations are switched off (NORMLAB_NO_SUBGROUP_ARITH: the tests' way to run the fallback).
gpu::ShaderMacros train_macros(const gpu::VulkanContext& ctx) {
    gpu::ShaderMacros m;
    if (!ctx.subgroup_arithmetic()) return m;
    m.emplace_back("NL_SUBGROUP_ARITH", "1");
    const auto chain =
        ctx.physical().getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceSubgroupProperties>();
    const auto& sg = chain.get<vk::PhysicalDeviceSubgroupProperties>();
    if ((sg.supportedStages & vk::ShaderStageFlagBits::eCompute) &&
        (sg.supportedOperations & vk::SubgroupFeatureFlagBits::eBallot))
        m.emplace_back("NL_SUBGROUP_BALLOT", "1");
    return m;
}

std::vector<std::unique_ptr<gpu::ComputeKernel>> make_kernels(const gpu::VulkanContext& ctx,
                                                              const train::TrainProgram& p,
                                                              const std::vector<train::TrainPass>& passes,
                                                              const std::vector<gpu::GpuBuffer>& buffers) {
    const gpu::ShaderMacros macros = train_macros(ctx);
    std::vector<std::unique_ptr<gpu::ComputeKernel>> out;
    for (const auto& pass : passes) {
        const auto push = static_cast<std::uint32_t>(std::max<std::size_t>(1, pass.params.size()) * 4);
        auto k = std::make_unique<gpu::ComputeKernel>(ctx, pass.kernel + ".comp", macros, std::vector<std::uint32_t>{},
                                                      static_cast<std::uint32_t>(pass.buffers.size()), push);
        std::vector<vk::Buffer> bind;
        for (int b : pass.buffers) {
            if (b < 0 || b >= static_cast<int>(p.buffers.size()))
                throw core::InternalError("train pass " + pass.kernel + " binds no buffer");
            bind.push_back(buffers[b].handle());
        }
        k->bind(bind);
        out.push_back(std::move(k));
    }
    return out;
}

}  // namespace

TrainRunner::TrainRunner(const gpu::VulkanContext& ctx, train::TrainProgram program, int steps_per_submit)
    : ctx_(&ctx), program_(std::move(program)), per_submit_(std::max(1, steps_per_submit)), recorder_(ctx) {
    for (const auto& b : program_.buffers) buffers_.emplace_back(ctx, buffer_bytes(b), gpu::BufferRole::Compute);
    log_read_ = gpu::GpuBuffer(ctx, buffers_[index("log")].size(), gpu::BufferRole::Readback);
    val_read_ = gpu::GpuBuffer(ctx, buffers_[index("val_log")].size(), gpu::BufferRole::Readback);
    auto cmd = recorder_.begin();
    for (const auto& b : buffers_) cmd.fillBuffer(b.handle(), 0, VK_WHOLE_SIZE, 0);
    cmd.fillBuffer(log_read_.handle(), 0, VK_WHOLE_SIZE, 0);
    cmd.fillBuffer(val_read_.handle(), 0, VK_WHOLE_SIZE, 0);
    // The zeroing before any later submission's shaders, copies and host reads.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                        vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer |
                            vk::PipelineStageFlagBits::eHost,
                        vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite |
                            vk::AccessFlagBits::eTransferWrite | vk::AccessFlagBits::eHostRead);
    recorder_.submit();

    step_kernels_ = make_kernels(ctx, program_, program_.passes, buffers_);
    eval_kernels_ = make_kernels(ctx, program_, program_.eval_passes, buffers_);
    pool_ = vk::raii::CommandPool(ctx.device(), vk::CommandPoolCreateInfo({}, ctx.queue_family()));
    cmds_ = vk::raii::CommandBuffers(ctx.device(),
                                     vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 3));
    record(*cmds_[0], program_.passes, step_kernels_, 1);
    record(*cmds_[1], program_.passes, step_kernels_, per_submit_);
    record(*cmds_[2], program_.eval_passes, eval_kernels_, 1);
    fence_ = vk::raii::Fence(ctx.device(), vk::FenceCreateInfo(vk::FenceCreateFlagBits::eSignaled));
}

TrainRunner::~TrainRunner() {
    try {
        finish();
    } catch (...) {  // a device fault while tearing down: the device is lost anyway
    }
}

int TrainRunner::index(const std::string& name) const {
    const int i = program_.find(name);
    if (i < 0) throw core::InternalError("train program has no buffer " + name);
    return i;
}

void TrainRunner::record(vk::CommandBuffer cmd, const std::vector<train::TrainPass>& passes,
                         const std::vector<std::unique_ptr<gpu::ComputeKernel>>& kernels, int repeats) const {
    // Simultaneous use: the same recording is queued again before the previous copy finished.
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eSimultaneousUse));
    // Everything earlier on the queue (uploads, zeroing, earlier steps, the previous log copy)
    // before this recording's shaders read or write the buffers.
    gpu::memory_barrier(
        cmd, vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
        vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite | vk::AccessFlagBits::eTransferRead,
        vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite);
    for (int r = 0; r < repeats; ++r) {
        for (std::size_t i = 0; i < passes.size(); ++i) {
            const auto& p = passes[i];
            std::vector<std::uint32_t> push = p.params;
            push.resize(std::max<std::size_t>(1, push.size()), 0);
            kernels[i]->dispatch(cmd, push.data(), p.groups[0], p.groups[1]);
            // Each pass's writes before the next pass's reads and writes (the program's order).
            gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                                vk::PipelineStageFlagBits::eComputeShader,
                                vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite);
        }
    }
    // The logs' last writes before the copies into the readback buffers.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                        vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferRead);
    cmd.copyBuffer(buffers_[index("log")].handle(), log_read_.handle(), vk::BufferCopy(0, 0, log_read_.size()));
    cmd.copyBuffer(buffers_[index("val_log")].handle(), val_read_.handle(), vk::BufferCopy(0, 0, val_read_.size()));
    // The copies before the host reads the readback buffers (after the fence).
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                        vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
    cmd.end();
}

void TrainRunner::queue(vk::CommandBuffer cmd) {
    if (fenced_) finish();  // poll() fenced the earlier work: wait for it before queueing more
    // Without a fence: queue order keeps it after the earlier submissions, and finish() waits
    // for a last, fenced one.
    ctx_->queue().submit(vk::SubmitInfo({}, {}, cmd), nullptr);
    pending_ = true;
    ++pending_submits_;
}

void TrainRunner::submit(int steps, int eval_every, bool eval_last) {
    while (steps > 0) {
        int chunk = steps >= per_submit_ ? per_submit_ : 1;
        if (eval_every > 0) {
            const int to_eval = eval_every - steps_ % eval_every;
            if (to_eval < chunk) chunk = 1;
        }
        queue(chunk == per_submit_ ? *cmds_[1] : *cmds_[0]);
        steps_ += chunk;
        steps -= chunk;
        if ((eval_every > 0 && steps_ % eval_every == 0) || (eval_last && steps == 0)) {
            if (!program_.eval_passes.empty()) queue(*cmds_[2]);
        }
    }
}

void TrainRunner::fence_pending() {
    if (fenced_) return;
    // An empty, fenced submission: signalled when everything queued before it has finished.
    ctx_->device().resetFences(*fence_);
    ctx_->queue().submit(vk::SubmitInfo{}, *fence_);
    fenced_ = true;
}

bool TrainRunner::poll() {
    if (!pending_) return true;
    fence_pending();
    if (fence_.getStatus() != vk::Result::eSuccess) return false;
    pending_ = fenced_ = false;
    pending_submits_ = 0;
    return true;
}

void TrainRunner::finish() {
    if (!pending_) return;
    fence_pending();
    const auto timeout = std::chrono::milliseconds(60000 + 2000LL * pending_submits_);
    pending_ = fenced_ = false;
    pending_submits_ = 0;
    ctx_->wait(*fence_, timeout);
}

std::vector<float> TrainRunner::log() const {
    std::vector<float> out(program_.buffers[index("log")].elements);
    std::memcpy(out.data(), log_read_.data(), out.size() * 4);
    return out;
}

std::vector<float> TrainRunner::val_log() const {
    std::vector<float> out(program_.buffers[index("val_log")].elements);
    std::memcpy(out.data(), val_read_.data(), out.size() * 4);
    return out;
}

void TrainRunner::upload(const std::string& name, const void* data, std::size_t bytes) {
    finish();
    const int i = index(name);
    if (bytes > program_.buffers[i].elements * 4) throw core::InternalError("train upload past the end of " + name);
    gpu::Staging staging(*ctx_, recorder_);
    staging.upload({{&buffers_[i], 0, data, bytes}});
}

plan::HistogramResult TrainRunner::histogram(const std::string& name, std::uint32_t bins) {
    // The recordings' barrier after every pass (compute writes before later compute reads, in submission
    // order) already covers the histogram's submission; finish() keeps its wait to its own work.
    finish();
    const int i = index(name);
    if (!histogram_) histogram_ = std::make_unique<Histogram>(*ctx_);
    plan::ElementSet set;
    set.segment_len = static_cast<std::int64_t>(program_.buffers[i].elements);
    return histogram_->run(buffers_[i], set, bins);
}

std::vector<float> TrainRunner::download(const std::string& name) {
    finish();
    const int i = index(name);
    std::vector<float> out(program_.buffers[i].elements);
    gpu::Staging staging(*ctx_, recorder_);
    staging.download({{&buffers_[i], 0, out.data(), out.size() * 4}});
    return out;
}

}  // namespace normlab::ops
