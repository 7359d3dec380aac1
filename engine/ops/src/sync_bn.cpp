#include "normlab/ops/sync_bn.hpp"

namespace normlab::ops {
namespace {

// Mirrors `Push` in shaders/sync_reduce.comp.
struct ReducePush {
    std::uint32_t devices, channels;
    float eps;
};

}  // namespace

SyncBatchNorm::SyncBatchNorm(Normalizer& normalizer)
    : plan::SyncBatchNormOn<Normalizer>(normalizer),
      kernels_(normalizer.context(), gpu::ShaderMacros{}, 2, static_cast<std::uint32_t>(sizeof(ReducePush))) {}

std::vector<float> SyncBatchNorm::all_reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C,
                                             double eps, double& gpu_ms) {
    const gpu::VulkanContext& ctx = n_->context();
    gpu::ComputeKernel& kernel = kernels_.get("sync_reduce.comp", {});
    const vk::DeviceSize in_bytes = static_cast<vk::DeviceSize>(K * C) * 16,
                         out_bytes = static_cast<vk::DeviceSize>(C) * 32;
    gpu::ensure_compute_buffer(ctx, shards_, in_bytes);
    gpu::ensure_compute_buffer(ctx, out_, out_bytes);
    n_->staging().upload({{&shards_, 0, shards.data(), in_bytes}});
    kernel.bind_ranges({{shards_.handle(), 0, in_bytes}, {out_.handle(), 0, out_bytes}});
    const ReducePush push{static_cast<std::uint32_t>(K), static_cast<std::uint32_t>(C), static_cast<float>(eps)};
    gpu::CommandRecorder& recorder = n_->recorder();
    vk::CommandBuffer cmd = recorder.begin();
    recorder.start_timer();
    kernel.dispatch(cmd, &push, static_cast<std::uint32_t>((C + 63) / 64));
    recorder.stop_timer();
    // Makes the reduce's writes of OUT visible to the host's reads (mapped memory) and to the
    // staged readback's copy, which the next submission's first barrier orders after this one.
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                        vk::PipelineStageFlagBits::eHost | vk::PipelineStageFlagBits::eTransfer,
                        vk::AccessFlagBits::eHostRead | vk::AccessFlagBits::eTransferRead);
    gpu_ms += recorder.submit();
    std::vector<float> out(static_cast<std::size_t>(C) * 8);
    n_->staging().download({{&out_, 0, out.data(), out_bytes}});
    return out;
}

}  // namespace normlab::ops
