#include "normlab/webgpu/wgpu_histogram.hpp"

#include "wgpu_dispatch.hpp"

#include <algorithm>
#include <chrono>
#include <string>

namespace normlab::webgpu {
namespace {

constexpr std::uint32_t kWg = 256;  // histogram.wgsl's WG
static_assert(plan::kHistogramChunkLen % kWg == 0);

}  // namespace

WgpuHistogram::WgpuHistogram(const WgpuContext& ctx) : ctx_(&ctx) {
    constexpr auto ro = WGPUBufferBindingType_ReadOnlyStorage, rw = WGPUBufferBindingType_Storage,
                   uni = WGPUBufferBindingType_Uniform;
    // Values and subtracted values read; partials, result and bins written; 5 the uniform block.
    bind_layout_ = make_bind_layout(ctx, {{0, ro}, {1, rw}, {2, rw}, {3, rw}, {4, ro}, {5, uni}});
    pipeline_layout_ = make_pipeline_layout(ctx, bind_layout_);
    ensure(result_, ctx, 32, kStorage);
    ensure(bins_, ctx, plan::kHistogramMaxBins * 4, kStorage);
    ensure(uniform_, ctx, sizeof(plan::HistogramParams), kUniform);
}

WgpuHistogram::~WgpuHistogram() {
    for (auto& [key, p] : pipelines_) wgpuComputePipelineRelease(p);
    if (pipeline_layout_) wgpuPipelineLayoutRelease(pipeline_layout_);
    if (bind_layout_) wgpuBindGroupLayoutRelease(bind_layout_);
}

WGPUComputePipeline WgpuHistogram::pipeline(int pass, bool diff) {
    auto it = pipelines_.find({pass, diff});
    if (it != pipelines_.end()) return it->second;
    const std::string source = "// histogram.wgsl variant\nconst PASS: u32 = " + std::to_string(pass) +
                               "u;\nconst DIFF: bool = " + (diff ? "true" : "false") + ";\n" +
                               std::string(wgsl_file("histogram.wgsl")) + "\n" +
                               std::string(wgsl_file("workgroup_sum.wgsl"));
    return pipelines_
        .emplace(std::make_pair(pass, diff), make_pipeline(*ctx_, source, "histogram.wgsl", pipeline_layout_))
        .first->second;
}

plan::HistogramResult WgpuHistogram::run(const WgpuBuffer& values, const plan::ElementSet& set, std::uint32_t bins,
                                         const WgpuBuffer* subtract) {
    plan::check_histogram(set, bins, values.size(), subtract ? std::max<std::uint64_t>(subtract->size(), 1) : 0);
    plan::HistogramResult r;
    r.bins.assign(bins, 0);
    if (set.count() == 0) return r;
    const bool diff = subtract != nullptr;
    const plan::HistogramPlan plan =
        plan::plan_histogram(set, bins, ctx_->limits().max_groups_per_dim, ctx_->limits().max_groups_per_dim);
    const std::uint64_t part_bytes = plan.partial_bytes;
    check_binding(*ctx_, part_bytes, "the histogram's " + std::to_string(plan.params.chunks) + " partial sums");
    const plan::DispatchGrid g = plan.grid;
    const plan::HistogramParams& block = plan.params;

    ErrorScope errors(*ctx_);
    const auto t = std::chrono::steady_clock::now();
    ensure(partials_, *ctx_, part_bytes, kStorage);
    uniform_.write(*ctx_, &block, sizeof(block));
    const std::vector<std::uint32_t> zeros(plan::kHistogramMaxBins, 0u);
    bins_.write(*ctx_, zeros.data(), zeros.size() * 4);  // queue writes land before the submit below
    const WgpuBuffer& sub = diff ? *subtract : values;
    const BindGroup group = bind_group(*ctx_, bind_layout_,
                                       {{0, &values, values.size()},
                                        {1, &partials_, part_bytes},
                                        {2, &result_, 32},
                                        {3, &bins_, plan::kHistogramMaxBins * 4},
                                        {4, &sub, sub.size()},
                                        {5, &uniform_, sizeof(plan::HistogramParams)}});
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx_->device(), nullptr);
    // One pass per kernel: WebGPU orders the partials (0) before the merge (1), and the merged
    // min/max (1) before the binning (2) reads them.
    encode_pass(enc, pipeline(0, diff), group, g);
    encode_pass(enc, pipeline(1, diff), group, plan::DispatchGrid{});
    encode_pass(enc, pipeline(2, diff), group, g);
    submit(*ctx_, enc);

    float res[8];
    std::vector<std::uint32_t> counts(bins);
    read_back(*ctx_, staging_, {{&result_, res, 32}, {&bins_, counts.data(), bins * 4ull}});
    errors.check("the histogram on WebGPU");
    r = plan::unpack_histogram(res, counts.data(), bins);
    // Submit to readback, one wait (no timestamps in this backend, as WgpuNormalizer's dispatch_ms).
    r.gpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
    return r;
}

}  // namespace normlab::webgpu
