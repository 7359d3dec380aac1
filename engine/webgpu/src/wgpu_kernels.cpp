#include "normlab/webgpu/wgpu_kernels.hpp"

#include "normlab/error.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace normlab {
// Generated from shaders/wgsl/*.wgsl by cmake/embed_text.cmake (web/CMakeLists.txt).
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_wgsl();
}  // namespace normlab

namespace normlab::webgpu {
namespace {

std::string_view wgsl(std::string_view name) {
    const std::string path = "shaders/wgsl/" + std::string(name);
    for (const auto& [file, text] : embedded_wgsl())
        if (file == path) return text;
    throw DeviceError("the WGSL kernel " + path + " is not built in");
}

const char* file_of(KernelKind k) {
    switch (k) {
        case KernelKind::Stats: return "norm_stats.wgsl";
        case KernelKind::Merge: return "norm_merge.wgsl";
        case KernelKind::Apply: return "norm_apply.wgsl";
    }
    return "";
}

}  // namespace

std::string kernel_source(const KernelVariant& v) {
    std::string s = "// " + std::string(file_of(v.kind)) + " variant\n";
    s += "const WG: u32 = " + std::to_string(v.wg) + "u;\n";
    s += "const VPT: u32 = " + std::to_string(v.vpt) + "u;\n";
    s += std::string("const RMS: bool = ") + (v.rms ? "true" : "false") + ";\n";
    s += std::string("const FUSED: bool = ") + (v.fused ? "true" : "false") + ";\n";
    s += wgsl("norm_common.wgsl");
    s += "\n";
    s += wgsl(file_of(v.kind));
    return s;
}

WgpuKernels::WgpuKernels(const WgpuContext& ctx) : ctx_(&ctx) {
    // Bindings 0–5 storage (x and γ, β read-only), 6 the uniform layout block.
    std::vector<WGPUBindGroupLayoutEntry> entries(kBindings);
    for (std::uint32_t i = 0; i < kBindings; ++i) {
        WGPUBindGroupLayoutEntry& e = entries[i];
        e = WGPUBindGroupLayoutEntry{};
        e.binding = i;
        e.visibility = WGPUShaderStage_Compute;
        const bool read_only = i == 0 || i == 2 || i == 3;
        e.buffer.type = i == 6      ? WGPUBufferBindingType_Uniform
                        : read_only ? WGPUBufferBindingType_ReadOnlyStorage
                                    : WGPUBufferBindingType_Storage;
    }
    WGPUBindGroupLayoutDescriptor bd{};
    bd.entryCount = kBindings;
    bd.entries = entries.data();
    bind_layout_ = wgpuDeviceCreateBindGroupLayout(ctx.device(), &bd);
    WGPUPipelineLayoutDescriptor pd{};
    pd.bindGroupLayoutCount = 1;
    pd.bindGroupLayouts = &bind_layout_;
    pipeline_layout_ = wgpuDeviceCreatePipelineLayout(ctx.device(), &pd);
}

WgpuKernels::~WgpuKernels() {
    for (auto& [key, p] : pipelines_) wgpuComputePipelineRelease(p);
    if (pipeline_layout_) wgpuPipelineLayoutRelease(pipeline_layout_);
    if (bind_layout_) wgpuBindGroupLayoutRelease(bind_layout_);
}

WGPUComputePipeline WgpuKernels::pipeline(const KernelVariant& v) {
    auto it = pipelines_.find(v.key());
    if (it != pipelines_.end()) return it->second;
    const std::string source = kernel_source(v);
    WGPUShaderModuleWGSLDescriptor wd{};
    wd.chain.sType = WGPUSType_ShaderModuleWGSLDescriptor;
    wd.source = source.c_str();
    WGPUShaderModuleDescriptor md{};
    md.nextInChain = &wd.chain;
    md.label = file_of(v.kind);
    WGPUShaderModule module = wgpuDeviceCreateShaderModule(ctx_->device(), &md);
    WGPUComputePipelineDescriptor cd{};
    cd.label = file_of(v.kind);
    cd.layout = pipeline_layout_;
    cd.compute.module = module;
    cd.compute.entryPoint = "main";
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx_->device(), &cd);
    wgpuShaderModuleRelease(module);
    return pipelines_.emplace(v.key(), p).first->second;
}

}  // namespace normlab::webgpu
