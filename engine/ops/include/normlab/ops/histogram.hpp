// Histogram: the distribution of a set of tensor values computed on the GPU
// (shaders/histogram.comp): count, mean, biased variance, min, max and equal-width bins
// over [min, max]. A set is the whole tensor or the elements of one statistic of a
// StatLayout, so the app can show "input vs output, whole tensor vs selected group".
// Non-finite values are skipped (and not counted). ElementSet, HistogramResult and the request
// checks are engine/core's (histogram_set.hpp), shared with the WebGPU backend.
#pragma once
#include "normlab/gpu/command_recorder.hpp"
#include "normlab/gpu/compute_kernel.hpp"
#include "normlab/gpu/gpu_buffer.hpp"
#include "normlab/core/histogram_set.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace normlab {

class Histogram {
public:
    static constexpr std::uint32_t kMaxBins = kHistogramMaxBins;
    explicit Histogram(const VulkanContext& ctx);

    // `values` is a device buffer holding the tensor (float32); bins in [1, kMaxBins].
    // With `subtract`, the histogram is of values − subtract (same layout, e.g. y − x).
    // Throws InputError for a bad bin count or a set outside the buffer.
    HistogramResult run(const GpuBuffer& values, const ElementSet& set, std::uint32_t bins,
                        const GpuBuffer* subtract = nullptr);

private:
    ComputeKernel& kernel(int pass, bool diff);

    const VulkanContext* ctx_;
    ShaderMacros macros_;
    std::map<std::pair<int, bool>, std::unique_ptr<ComputeKernel>> kernels_;
    GpuBuffer partials_, result_, bins_, down_;  // down_: the readback of result_ and bins_
    CommandRecorder recorder_;
};

}  // namespace normlab
