// CopyBench: the fastest copy of a buffer this device does, the floor a memory-bound kernel
// is scored against. Variants: vkCmdCopyBuffer; compute copies with 1, 2, 4 and 8 vec4s per
// invocation and one workgroup per slice (as many workgroups as the size needs); and
// grid-stride compute copies with a fixed 1024 or 8192 workgroups of 256 invocations, which
// keep every compute unit of a large GPU busy. Each is timed with timestamp queries. And the
// bus's yardstick for transfers: vkCmdCopyBuffer between a host-visible staging buffer and a
// compute buffer, each way.
#pragma once
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/gpu_buffer.hpp"

#include <map>
#include <memory>
#include <string>

namespace normlab {

class CopyBench {
public:
    explicit CopyBench(const gpu::VulkanContext& ctx);
    // GPU milliseconds of one copy of `bytes` with the named variant (variants()).
    double time_ms(std::uint64_t bytes, const std::string& variant);
    static const std::vector<std::string>& variants();
    // GPU milliseconds of one vkCmdCopyBuffer of `bytes` from a host-visible upload buffer to a
    // compute buffer (to_device) or from a compute buffer to a host-visible readback buffer.
    double transfer_ms(std::uint64_t bytes, bool to_device);

private:
    const gpu::VulkanContext* ctx_;
    void ensure(std::uint64_t bytes);
    gpu::GpuBuffer src_, dst_, host_up_, host_down_;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::unique_ptr<gpu::ComputeKernel>> kernels_;
    gpu::CommandRecorder recorder_;
};

}  // namespace normlab
