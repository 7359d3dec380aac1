// Histogram: the distribution of a set of tensor values computed on the GPU
// (shaders/histogram.comp): count, mean, biased variance, min, max and equal-width bins
// over [min, max]. A set is the whole tensor or the elements of one statistic of a
// StatLayout, so the app can show "input vs output, whole tensor vs selected group".
// Non-finite values are skipped (and not counted). ElementSet, HistogramResult and the request
// checks are engine/plan's (histogram_set.hpp), shared with the WebGPU backend.
#pragma once
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/gpu_buffer.hpp"
#include "normlab/plan/histogram_set.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace normlab::ops {

class Histogram {
public:
    static constexpr std::uint32_t kMaxBins = plan::kHistogramMaxBins;
    explicit Histogram(const gpu::VulkanContext& ctx);

    // `values` is a device buffer holding the tensor (float32); bins in [1, kMaxBins].
    // With `subtract`, the histogram is of values − subtract (same layout, e.g. y − x).
    // Throws InputError for a bad bin count or a set outside the buffer.
    plan::HistogramResult run(const gpu::GpuBuffer& values, const plan::ElementSet& set, std::uint32_t bins,
                              const gpu::GpuBuffer* subtract = nullptr);

private:
    gpu::ComputeKernel& kernel(int pass, bool diff);

    const gpu::VulkanContext* ctx_;
    gpu::ShaderMacros macros_;
    std::map<std::pair<int, bool>, std::unique_ptr<gpu::ComputeKernel>> kernels_;
    gpu::GpuBuffer partials_, result_, bins_, down_;  // down_: the readback of result_ and bins_
    gpu::CommandRecorder recorder_;
};

}  // namespace normlab::ops
