// WgslCopy: the browser bench's copy of a buffer's bytes with shaders/wgsl/copy.wgsl, timed the
// way the bench times a normalization: one submit, then a readback of a few bytes of the output
// (mapAsync), wall clock. The reference that "efficiency" divides by (copy time / kernel time).
#pragma once
#include "normlab/webgpu/wgpu_buffer.hpp"

#include <cstdint>
#include <vector>

namespace normlab::webbench {

class WgslCopy {
public:
    explicit WgslCopy(webgpu::WgpuContext& ctx);
    ~WgslCopy();
    WgslCopy(const WgslCopy&) = delete;
    WgslCopy& operator=(const WgslCopy&) = delete;
    // Copies the first `bytes` (a multiple of 16) of src into the bench's own buffer and waits
    // until 16 bytes of the copy are read back; returns the milliseconds from submit to then.
    double time_ms(const webgpu::WgpuBuffer& src, std::uint64_t bytes);
    // The copy's output as floats (a check that the copy ran).
    std::vector<float> read(std::uint64_t bytes);

private:
    webgpu::WgpuContext* ctx_;
    WGPUBindGroupLayout bind_ = nullptr;
    WGPUPipelineLayout layout_ = nullptr;
    WGPUComputePipeline pipeline_ = nullptr;
    webgpu::WgpuBuffer dst_, uniform_;
    std::vector<webgpu::WgpuBuffer> staging_;
};

}  // namespace normlab::webbench
