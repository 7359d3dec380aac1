// CopyBench: the fastest copy of a buffer this device does, the floor a memory-bound kernel
// is scored against. Tries a compute copy with 1, 2, 4 and 8 vec4s per invocation and
// vkCmdCopyBuffer, each timed with timestamp queries.
#pragma once
#include "normlab/compute_kernel.hpp"
#include "normlab/gpu_buffer.hpp"

#include <map>
#include <memory>
#include <string>

namespace normlab {

class CopyBench {
public:
    explicit CopyBench(const VulkanContext& ctx);
    // GPU milliseconds of one copy of `bytes` with the named variant ("shader-v1".."shader-v8",
    // "vkCmdCopyBuffer").
    double time_ms(std::uint64_t bytes, const std::string& variant);
    static const std::vector<std::string>& variants();

private:
    const VulkanContext* ctx_;
    GpuBuffer src_, dst_;
    std::map<std::uint32_t, std::unique_ptr<ComputeKernel>> kernels_;
    vk::raii::CommandPool pool_{nullptr};
    vk::raii::CommandBuffer cmd_{nullptr};
    vk::raii::QueryPool queries_{nullptr};
};

}  // namespace normlab
