#include "wgpu_dispatch.hpp"

#include "normlab/core/error.hpp"
#include "normlab/plan/layout_params.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

namespace normlab::webgpu {
// Generated from shaders/wgsl/*.wgsl by cmake/embed_text.cmake (engine/webgpu/CMakeLists.txt).
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_wgsl();
}  // namespace normlab::webgpu

namespace normlab::webgpu {

std::string_view wgsl_file(std::string_view name) {
    const std::string path = "shaders/wgsl/" + std::string(name);
    for (const auto& [file, text] : embedded_wgsl())
        if (file == path) return text;
    throw core::DeviceError("the WGSL kernel " + path + " is not built in");
}

WGPUBindGroupLayout make_bind_layout(const WgpuContext& ctx, const std::vector<LayoutEntry>& bindings) {
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

WGPUComputePipeline make_pipeline(const WgpuContext& ctx, const std::string& source, const char* label,
                                  WGPUPipelineLayout layout) {
    WGPUShaderModuleWGSLDescriptor wd{};
    wd.chain.sType = WGPUSType_ShaderModuleWGSLDescriptor;
    wd.source = source.c_str();
    WGPUShaderModuleDescriptor md{};
    md.nextInChain = &wd.chain;
    md.label = label;
    WGPUShaderModule module = wgpuDeviceCreateShaderModule(ctx.device(), &md);
    WGPUComputePipelineDescriptor cd{};
    cd.label = label;
    cd.layout = layout;
    cd.compute.module = module;
    cd.compute.entryPoint = "main";
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx.device(), &cd);
    wgpuShaderModuleRelease(module);
    return p;
}

LayoutBlock layout_block(const core::StatLayout& layout, const core::NormSpec& spec) {
    const plan::LayoutParams lp = plan::layout_params(layout, spec);
    LayoutBlock b{};
    b.stat_count = lp.stat_count;
    b.count = lp.count;
    b.segment_len = lp.segment_len;
    b.segment_stride = lp.segment_stride;
    b.stat_stride = lp.stat_stride;
    b.segmented = lp.segmented ? 1u : 0u;
    b.pstat_mod = lp.pstat_mod;
    b.pstat_mul = lp.pstat_mul;
    b.pelem_div = lp.pelem_div;
    b.has_w = lp.has_w ? 1u : 0u;
    b.has_b = lp.has_b ? 1u : 0u;
    b.eps = lp.eps;
    b.nan_bits = 0x7fc00000u;
    return b;
}

void check_binding(const WgpuContext& ctx, std::uint64_t need, const std::string& what) {
    const std::uint64_t bind_max = ctx.limits().max_storage_binding;
    if (need > bind_max)
        throw core::InputError(what + " need " + std::to_string(need) +
                               " bytes, more than this WebGPU device binds at " +
                               "once (maxStorageBufferBindingSize = " + std::to_string(bind_max) + " bytes)");
}

plan::DispatchGrid grid(const WgpuContext& ctx, std::uint64_t groups) {
    return plan::dispatch_grid(groups, ctx.limits().max_groups_per_dim, ctx.limits().max_groups_per_dim);
}

LayoutBlock for_pass(LayoutBlock base, std::uint32_t chunks, std::uint32_t chunk_len, plan::DispatchGrid g) {
    base.chunks = chunks;
    base.chunk_len = chunk_len;
    base.groups_x = g.x;
    return base;
}

BindGroup bind_group(const WgpuContext& ctx, WGPUBindGroupLayout layout, const std::vector<Binding>& bindings) {
    std::vector<WGPUBindGroupEntry> e(bindings.size());
    for (std::size_t i = 0; i < bindings.size(); ++i) {
        e[i] = WGPUBindGroupEntry{};
        e[i].binding = bindings[i].index;
        e[i].buffer = bindings[i].buffer->handle();
        e[i].offset = bindings[i].offset;
        e[i].size = std::max<std::uint64_t>(bindings[i].bytes, 16);
    }
    WGPUBindGroupDescriptor d{};
    d.layout = layout;
    d.entryCount = static_cast<std::uint32_t>(e.size());
    d.entries = e.data();
    return BindGroup(wgpuDeviceCreateBindGroup(ctx.device(), &d));
}

void submit(const WgpuContext& ctx, WGPUCommandEncoder enc) {
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, nullptr);
    wgpuQueueSubmit(ctx.queue(), 1, &cmd);
    wgpuCommandBufferRelease(cmd);
    wgpuCommandEncoderRelease(enc);
}

void encode_pass(WGPUCommandEncoder enc, WGPUComputePipeline pipeline, const BindGroup& group, plan::DispatchGrid g) {
    WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, nullptr);
    wgpuComputePassEncoderSetPipeline(cp, pipeline);
    wgpuComputePassEncoderSetBindGroup(cp, 0, group.get(), 0, nullptr);
    wgpuComputePassEncoderDispatch(cp, g.x, g.y, 1);  // dispatchWorkgroups (the pre-js maps it)
    wgpuComputePassEncoderEnd(cp);
    wgpuComputePassEncoderRelease(cp);
}

}  // namespace normlab::webgpu
