#include "conv_gpu_support.hpp"

#include "../support.hpp"
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/gpu_buffer.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

namespace normlab::test {

std::vector<std::vector<float>> run_train_program(const TrainProgram& p,
                                                  const std::vector<std::pair<int, std::vector<float>>>& inputs) {
    const VulkanContext& ctx = context();
    std::vector<GpuBuffer> buffers(p.buffers.size());
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        ensure_compute_buffer(ctx, buffers[i], p.buffers[i].elements * sizeof(float));
        REQUIRE(buffers[i].mappable());  // lavapipe and integrated GPUs map compute memory
        std::memset(buffers[i].data(), 0, buffers[i].size());
    }
    for (const auto& [index, values] : inputs)
        std::memcpy(buffers[index].data(), values.data(), values.size() * sizeof(float));
    std::vector<std::unique_ptr<ComputeKernel>> kernels;
    CommandRecorder rec(ctx);
    vk::CommandBuffer cmd = rec.begin();
    for (const TrainPass& pass : p.passes) {
        auto bytes = static_cast<std::uint32_t>(pass.params.size() * sizeof(std::uint32_t));
        kernels.push_back(std::make_unique<ComputeKernel>(ctx, pass.kernel + ".comp", ShaderMacros{},
                                                          std::vector<std::uint32_t>{},
                                                          static_cast<std::uint32_t>(pass.buffers.size()), bytes));
        std::vector<vk::Buffer> bound;
        for (int b : pass.buffers) bound.push_back(buffers[b].handle());
        kernels.back()->bind(bound);
        kernels.back()->dispatch(cmd, pass.params.data(), pass.groups[0], pass.groups[1]);
        // This pass's writes before the next pass reads or overwrites them.
        memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                       vk::PipelineStageFlagBits::eComputeShader,
                       vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite);
    }
    // The last pass's writes before the host reads the mapped buffers.
    memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                   vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
    rec.submit();
    std::vector<std::vector<float>> out(buffers.size());
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        const auto* f = static_cast<const float*>(buffers[i].data());
        out[i].assign(f, f + p.buffers[i].elements);
    }
    return out;
}

}  // namespace normlab::test
