// Shared by the WebGPU ops (normalizer, backward, histogram, heatmap): the uniform block of
// norm_common.wgsl (struct Layout) filled from a StatLayout, the embedded WGSL files, bind-group
// and pipeline layouts, compute pipelines, dispatch grids within maxComputeWorkgroupsPerDimension,
// bind groups and one compute pass per dispatch (WebGPU orders storage writes between passes).
#pragma once
#include "normlab/plan/backend_helpers.hpp"
#include "normlab/plan/dispatch_grid.hpp"
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/webgpu/wgpu_buffer.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace normlab::webgpu {

// norm_common.wgsl's struct Layout, 20 words (a multiple of 16 bytes, as uniforms need).
struct LayoutBlock {
    std::uint32_t stat_count, count, segment_len, segment_stride, stat_stride, segmented;
    std::uint32_t chunks, chunk_len, groups_x;
    std::uint32_t pstat_mod, pstat_mul, pelem_div, has_w, has_b;
    float eps;
    std::uint32_t nan_bits;
    std::uint32_t gstat_seg_mul, gstat_p_div;  // the backward's γ/β pass (ParamLayout)
    std::uint32_t pad0, pad1;
};
static_assert(sizeof(LayoutBlock) == 80);

inline constexpr WGPUBufferUsageFlags kStorage =
    WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
inline constexpr WGPUBufferUsageFlags kUniform = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;

// The block of `layout` under `spec` (normlab/plan/layout_params.hpp, the content the GLSL push
// constants carry too), with no pass set (chunks, chunk_len, groups_x are 0).
LayoutBlock layout_block(const core::StatLayout& layout, const core::NormSpec& spec);

// The text of shaders/wgsl/<name> (embedded at build time); DeviceError when it is not built in.
std::string_view wgsl_file(std::string_view name);

// Bind-group layout entries: binding, type (ReadOnlyStorage, Storage or Uniform), compute only.
using LayoutEntry = std::pair<std::uint32_t, WGPUBufferBindingType>;
WGPUBindGroupLayout make_bind_layout(const WgpuContext& ctx, const std::vector<LayoutEntry>& bindings);
WGPUPipelineLayout make_pipeline_layout(const WgpuContext& ctx, WGPUBindGroupLayout bind);
// The compute pipeline of WGSL `source` (entry point main) on `layout`.
WGPUComputePipeline make_pipeline(const WgpuContext& ctx, const std::string& source, const char* label,
                                  WGPUPipelineLayout layout);

// Throws InputError "<what> need N bytes, more than this WebGPU device binds at once (…)".
void check_binding(const WgpuContext& ctx, std::uint64_t need, const std::string& what);

// `groups` workgroups as a 2-D grid within the device's limits (dispatch_grid; kernels linearize it).
plan::DispatchGrid grid(const WgpuContext& ctx, std::uint64_t groups);

// `base` for one pass: `chunks` workgroups (or owners) per statistic of `chunk_len` elements,
// dispatched on grid g.
LayoutBlock for_pass(LayoutBlock base, std::uint32_t chunks, std::uint32_t chunk_len, plan::DispatchGrid g);

// Binding `index` of a bind group: `bytes` (at least 16) of `buffer` from `offset`.
struct Binding {
    std::uint32_t index;
    const WgpuBuffer* buffer;
    std::uint64_t bytes;
    std::uint64_t offset = 0;
};
// A bind group, released when it goes (also when an exception leaves the scope that made it).
class BindGroup {
public:
    BindGroup() = default;
    explicit BindGroup(WGPUBindGroup group) : group_(group) {}
    ~BindGroup() {
        if (group_) wgpuBindGroupRelease(group_);
    }
    BindGroup(BindGroup&& o) noexcept : group_(std::exchange(o.group_, nullptr)) {}
    BindGroup& operator=(BindGroup&& o) noexcept {
        std::swap(group_, o.group_);
        return *this;
    }
    WGPUBindGroup get() const { return group_; }

private:
    WGPUBindGroup group_ = nullptr;
};
BindGroup bind_group(const WgpuContext& ctx, WGPUBindGroupLayout layout, const std::vector<Binding>& bindings);

// Finishes `enc`, submits it to the queue and releases both.
void submit(const WgpuContext& ctx, WGPUCommandEncoder enc);

// One compute pass with one dispatch of grid g (dispatchWorkgroups; the pre-js maps the name).
void encode_pass(WGPUCommandEncoder enc, WGPUComputePipeline pipeline, const BindGroup& group, plan::DispatchGrid g);

}  // namespace normlab::webgpu
