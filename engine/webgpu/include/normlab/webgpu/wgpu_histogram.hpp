// WgpuHistogram: the distribution of a set of tensor values on WebGPU (shaders/wgsl/histogram.wgsl),
// as the Vulkan Histogram computes it (the same ElementSet, HistogramResult, bins over [min, max] and
// checks: normlab/plan/histogram_set.hpp): three passes in one submit (per-chunk statistics, their
// Chan merge, the binning), then one readback. The values are a device buffer, e.g. the
// WgpuNormalizer's x or y (buffers()); with `subtract`, the histogram is of values − subtract.
#pragma once
#include "normlab/plan/histogram_set.hpp"
#include "normlab/webgpu/wgpu_buffer.hpp"

#include <map>
#include <utility>
#include <vector>

namespace normlab::webgpu {

class WgpuHistogram {
public:
    explicit WgpuHistogram(const WgpuContext& ctx);
    ~WgpuHistogram();
    WgpuHistogram(const WgpuHistogram&) = delete;
    WgpuHistogram& operator=(const WgpuHistogram&) = delete;

    // Bins in 1..kHistogramMaxBins; InputError for a bad bin count or a set outside the buffer.
    plan::HistogramResult run(const WgpuBuffer& values, const plan::ElementSet& set, std::uint32_t bins,
                              const WgpuBuffer* subtract = nullptr);

private:
    WGPUComputePipeline pipeline(int pass, bool diff);
    const WgpuContext* ctx_;
    WGPUBindGroupLayout bind_layout_ = nullptr;
    WGPUPipelineLayout pipeline_layout_ = nullptr;
    std::map<std::pair<int, bool>, WGPUComputePipeline> pipelines_;
    WgpuBuffer partials_, result_, bins_, uniform_;
    std::vector<WgpuBuffer> staging_;
};

}  // namespace normlab::webgpu
