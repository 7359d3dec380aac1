#include "normlab/webgpu/wgpu_kernels.hpp"

#include "wgpu_dispatch.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace normlab::webgpu {
namespace {

const char* file_of(KernelKind k) {
    switch (k) {
        case KernelKind::Stats: return "norm_stats.wgsl";
        case KernelKind::Partial: return "norm_partial.wgsl";
        case KernelKind::Merge: return "norm_merge.wgsl";
        case KernelKind::Apply: return "norm_apply.wgsl";
        case KernelKind::Looped: return "norm_looped.wgsl";
        case KernelKind::GradReduce: return "grad_reduce.wgsl";
        case KernelKind::GradMerge: return "grad_merge.wgsl";
        case KernelKind::GradApply: return "grad_apply.wgsl";
        case KernelKind::GradFused: return "grad_fused.wgsl";
        case KernelKind::GradLooped: return "grad_looped.wgsl";
    }
    return "";
}

}  // namespace

std::string kernel_source(const KernelVariant& v) {
    auto flag = [](const char* name, bool on) {
        return std::string("const ") + name + ": bool = " + (on ? "true;\n" : "false;\n");
    };
    std::string s = "// " + std::string(file_of(v.kind)) + " variant\n";
    s += "const WG: u32 = " + std::to_string(v.wg) + "u;\n";
    s += "const VPT: u32 = " + std::to_string(v.vpt) + "u;\n";
    s += "const LANE_SPAN: u32 = " + std::to_string(v.lane_span != 0 ? v.lane_span : v.wg) + "u;\n";
    s += flag("RMS", v.rms) + flag("FUSED", v.fused) + flag("PARAM_PASS", v.param_pass) + flag("COLUMNS", v.columns) +
         flag("EVAL", v.eval);
    if (v.backward())
        s += flag("ONE_GAMMA", v.one_gamma) + flag("RUN_GAMMA", v.run_gamma) + flag("ROWS", v.rows) +
             flag("CHUNK_GAMMA", v.chunk_gamma) + flag("FROM_STATS", v.from_stats);
    s += wgsl_file(v.vec4 ? "pack4.wgsl" : "pack1.wgsl");
    s += "\n";
    s += wgsl_file("norm_common.wgsl");
    s += "\n";
    if (v.backward()) s += std::string(wgsl_file("grad_common.wgsl")) + "\n";
    s += wgsl_file(file_of(v.kind));
    if (v.kind == KernelKind::Stats || v.kind == KernelKind::GradFused || v.kind == KernelKind::GradLooped)
        s += "\n" + std::string(wgsl_file("workgroup_sum.wgsl"));
    if (v.kind == KernelKind::Partial || v.kind == KernelKind::Looped)
        s += "\n" + std::string(wgsl_file("norm_welford.wgsl"));
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
    WGPUComputePipeline p = make_pipeline(*ctx_, kernel_source(v), file_of(v.kind),
                                          v.backward() ? grad_pipeline_layout_ : pipeline_layout_);
    return pipelines_.emplace(v.key(), p).first->second;
}

}  // namespace normlab::webgpu
