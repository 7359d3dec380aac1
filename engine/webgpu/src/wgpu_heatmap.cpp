#include "normlab/webgpu/wgpu_heatmap.hpp"

#include "normlab/core/error.hpp"
#include "wgpu_dispatch.hpp"

#include <cstring>
#include <string>

namespace normlab::webgpu {
namespace {
// heatmap.wgsl's Fill, rounded up to a multiple of 16 bytes (a uniform block's size).
constexpr std::size_t kUniformBytes = (sizeof(plan::HeatmapFillParams) + 15) / 16 * 16;
}  // namespace

WgpuHeatmap::WgpuHeatmap(WgpuContext& ctx) : ctx_(&ctx) {
    constexpr auto ro = WGPUBufferBindingType_ReadOnlyStorage, rw = WGPUBufferBindingType_Storage,
                   uni = WGPUBufferBindingType_Uniform;
    // x, y, palette and colour table read; the pixels written; 5 the uniform block.
    bind_layout_ = make_bind_layout(ctx, {{0, ro}, {1, ro}, {2, ro}, {3, ro}, {4, rw}, {5, uni}});
    pipeline_layout_ = make_pipeline_layout(ctx, bind_layout_);
    pipeline_ = make_pipeline(ctx, std::string(wgsl_file("heatmap.wgsl")), "heatmap.wgsl", pipeline_layout_);
    ensure(uniform_, ctx, kUniformBytes, kUniform);
}

WgpuHeatmap::~WgpuHeatmap() {
    if (pipeline_) wgpuComputePipelineRelease(pipeline_);
    if (pipeline_layout_) wgpuPipelineLayoutRelease(pipeline_layout_);
    if (bind_layout_) wgpuBindGroupLayoutRelease(bind_layout_);
}

std::vector<std::uint32_t> WgpuHeatmap::fill(const WgpuBuffer& x, const WgpuBuffer& y,
                                             const std::vector<float>& palette, const std::vector<float>& lut,
                                             const plan::HeatmapFillParams& params) {
    const std::uint64_t pixel_bytes = std::uint64_t{params.img_w} * params.img_h * 4;
    check_binding(
        *ctx_, pixel_bytes,
        "the heatmap image of " + std::to_string(params.img_w) + "×" + std::to_string(params.img_h) + " pixels");
    ErrorScope errors(*ctx_);
    ensure(palette_, *ctx_, palette.size() * 4, kStorage);
    ensure(lut_, *ctx_, lut.size() * 4, kStorage);
    ensure(pixels_, *ctx_, pixel_bytes, kStorage);
    palette_.write(*ctx_, palette.data(), palette.size() * 4);
    lut_.write(*ctx_, lut.data(), lut.size() * 4);
    std::uint8_t padded[kUniformBytes] = {};
    static_assert(sizeof(plan::HeatmapFillParams) <= sizeof(padded));
    std::memcpy(padded, &params, sizeof(plan::HeatmapFillParams));
    uniform_.write(*ctx_, padded, sizeof(padded));
    const BindGroup group = bind_group(*ctx_, bind_layout_,
                                       {{0, &x, x.size()},
                                        {1, &y, y.size()},
                                        {2, &palette_, palette.size() * 4},
                                        {3, &lut_, lut.size() * 4},
                                        {4, &pixels_, pixel_bytes},
                                        {5, &uniform_, kUniformBytes}});
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx_->device(), nullptr);
    encode_pass(enc, pipeline_, group,
                plan::DispatchGrid{(params.img_w + plan::kHeatmapFillTile - 1) / plan::kHeatmapFillTile,
                                   (params.img_h + plan::kHeatmapFillTile - 1) / plan::kHeatmapFillTile});
    submit(*ctx_, enc);
    std::vector<std::uint32_t> out(static_cast<std::size_t>(pixel_bytes / 4));
    read_back(*ctx_, staging_, {{&pixels_, out.data(), pixel_bytes}});
    errors.check("the heatmap fill on WebGPU");
    return out;
}

}  // namespace normlab::webgpu
