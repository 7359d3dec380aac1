// CopyBench: the fastest copy of a buffer this device does, the floor a memory-bound kernel
// is scored against. Variants: vkCmdCopyBuffer; compute copies with 1, 2, 4 and 8 vec4s per
// invocation and one workgroup per slice (as many workgroups as the size needs); and
// grid-stride compute copies with a fixed 1024 or 8192 workgroups of 256 invocations, which
// keep every compute unit of a large GPU busy. Each is timed with timestamp queries.
#pragma once
#include "normlab/command_recorder.hpp"
#include "normlab/compute_kernel.hpp"
#include "normlab/gpu_buffer.hpp"

#include <map>
#include <memory>
#include <string>

namespace normlab {

class CopyBench {
public:
    explicit CopyBench(const VulkanContext& ctx);
    // GPU milliseconds of one copy of `bytes` with the named variant (variants()).
    double time_ms(std::uint64_t bytes, const std::string& variant);
    static const std::vector<std::string>& variants();

private:
    const VulkanContext* ctx_;
    GpuBuffer src_, dst_;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::unique_ptr<ComputeKernel>> kernels_;
    CommandRecorder recorder_;
};

}  // namespace normlab
