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
        case KernelKind::GradReduce: return "grad_reduce.wgsl";
        case KernelKind::GradMerge: return "grad_merge.wgsl";
        case KernelKind::GradApply: return "grad_apply.wgsl";
    }
    return "";
}

// Bind-group layout entries: binding, type (ReadOnlyStorage, Storage or Uniform).
WGPUBindGroupLayout make_bind_layout(const WgpuContext& ctx,
                                     const std::vector<std::pair<std::uint32_t, WGPUBufferBindingType>>& bindings) {
    std::vector<WGPUBindGroupLayoutEntry> entries(bindings.size());
    for (std::size_t i = 0; i < bindings.size(); ++i) {
        WGPUBindGroupLayoutEntry& e = entries[i];
        e = WGPUBindGroupLayoutEntry{};
        e.binding = bindings[i].first;
        e.visibility = WGPUShaderStage_Compute;
        e.buffer.type = bindings[i].second;
    }
    WGPUBindGroupLayoutDescriptor bd{};
    bd.entryCount = static_cast<std::uint32_t>(entries.size());
    bd.entries = entries.data();
    return wgpuDeviceCreateBindGroupLayout(ctx.device(), &bd);
}

WGPUPipelineLayout make_pipeline_layout(const WgpuContext& ctx, WGPUBindGroupLayout bind) {
    WGPUPipelineLayoutDescriptor pd{};
    pd.bindGroupLayoutCount = 1;
    pd.bindGroupLayouts = &bind;
    return wgpuDeviceCreatePipelineLayout(ctx.device(), &pd);
}

}  // namespace

std::string kernel_source(const KernelVariant& v) {
    auto flag = [](const char* name, bool on) {
        return std::string("const ") + name + ": bool = " + (on ? "true;\n" : "false;\n");
    };
    std::string s = "// " + std::string(file_of(v.kind)) + " variant\n";
    s += "const WG: u32 = " + std::to_string(v.wg) + "u;\n";
    s += "const VPT: u32 = " + std::to_string(v.vpt) + "u;\n";
    s += flag("RMS", v.rms) + flag("FUSED", v.fused) + flag("PARAM_PASS", v.param_pass) + flag("COLUMNS", v.columns) +
         flag("EVAL", v.eval);
    s += wgsl("norm_common.wgsl");
    s += "\n";
    if (v.backward()) s += std::string(wgsl("grad_common.wgsl")) + "\n";
    s += wgsl(file_of(v.kind));
    return s;
}

WgpuKernels::WgpuKernels(const WgpuContext& ctx) : ctx_(&ctx) {
    constexpr auto ro = WGPUBufferBindingType_ReadOnlyStorage, rw = WGPUBufferBindingType_Storage,
                   uni = WGPUBufferBindingType_Uniform;
    // x, γ, β read-only; y, statistics, partials written; 6 the uniform layout block.
    bind_layout_ = make_bind_layout(ctx, {{0, ro}, {1, rw}, {2, ro}, {3, ro}, {4, rw}, {5, rw}, {6, uni}});
    pipeline_layout_ = make_pipeline_layout(ctx, bind_layout_);
    // The backward: x, γ, dy read; ∂L/∂x (1), partials (5) and merged sums (8) written; the
    // statistics (4) are read here but declared read_write in norm_common.wgsl.
    grad_bind_layout_ =
        make_bind_layout(ctx, {{0, ro}, {1, rw}, {2, ro}, {4, rw}, {5, rw}, {6, uni}, {7, ro}, {8, rw}});
    grad_pipeline_layout_ = make_pipeline_layout(ctx, grad_bind_layout_);
}

WgpuKernels::~WgpuKernels() {
    for (auto& [key, p] : pipelines_) wgpuComputePipelineRelease(p);
    for (WGPUPipelineLayout l : {pipeline_layout_, grad_pipeline_layout_})
        if (l) wgpuPipelineLayoutRelease(l);
    for (WGPUBindGroupLayout l : {bind_layout_, grad_bind_layout_})
        if (l) wgpuBindGroupLayoutRelease(l);
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
    cd.layout = v.backward() ? grad_pipeline_layout_ : pipeline_layout_;
    cd.compute.module = module;
    cd.compute.entryPoint = "main";
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx_->device(), &cd);
    wgpuShaderModuleRelease(module);
    return pipelines_.emplace(v.key(), p).first->second;
}

}  // namespace normlab::webgpu
