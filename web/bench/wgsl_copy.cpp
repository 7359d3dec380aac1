#include "wgsl_copy.hpp"

#include "wgpu_dispatch.hpp"

#include <emscripten.h>

#include <string>

namespace normlab::webbench {

using namespace normlab::webgpu;

WgslCopy::WgslCopy(webgpu::WgpuContext& ctx) : ctx_(&ctx) {
    bind_ = webgpu::make_bind_layout(ctx, {{0, WGPUBufferBindingType_ReadOnlyStorage},
                                           {1, WGPUBufferBindingType_Storage},
                                           {2, WGPUBufferBindingType_Uniform}});
    layout_ = webgpu::make_pipeline_layout(ctx, bind_);
    pipeline_ = webgpu::make_pipeline(ctx, std::string(webgpu::wgsl_file("copy.wgsl")), "copy.wgsl", layout_);
}

WgslCopy::~WgslCopy() {
    if (pipeline_) wgpuComputePipelineRelease(pipeline_);
    if (layout_) wgpuPipelineLayoutRelease(layout_);
    if (bind_) wgpuBindGroupLayoutRelease(bind_);
}

double WgslCopy::time_ms(const webgpu::WgpuBuffer& src, std::uint64_t bytes) {
    ensure(dst_, *ctx_, bytes, webgpu::kStorage);
    ensure(uniform_, *ctx_, 16, webgpu::kUniform);
    const std::uint64_t n4 = bytes / 16;
    const plan::DispatchGrid g = grid(*ctx_, (n4 + 1023) / 1024);
    const std::uint32_t params[4] = {plan::u32(static_cast<std::int64_t>(n4)), g.x, 0, 0};
    uniform_.write(*ctx_, params, sizeof(params));
    const webgpu::BindGroup group =
        webgpu::bind_group(*ctx_, bind_, {{0, &src, bytes}, {1, &dst_, bytes}, {2, &uniform_, 16}});
    float probe[4];
    const double t = emscripten_get_now();
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx_->device(), nullptr);
    webgpu::encode_pass(enc, pipeline_, group, g);
    submit(*ctx_, enc);
    read_back(*ctx_, staging_, {{&dst_, probe, sizeof(probe)}});  // the readback follows the copy's pass
    const double ms = emscripten_get_now() - t;
    return ms;
}

std::vector<float> WgslCopy::read(std::uint64_t bytes) {
    std::vector<float> out(bytes / 4);
    read_back(*ctx_, staging_, {{&dst_, out.data(), bytes}});
    return out;
}

}  // namespace normlab::webbench
