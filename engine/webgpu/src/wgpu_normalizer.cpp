#include "normlab/webgpu/wgpu_normalizer.hpp"
#include "normlab/pow2.hpp"

#include "normlab/error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace normlab::webgpu {
namespace {

// The uniform block of norm_common.wgsl (struct Layout), 16 words.
struct LayoutBlock {
    std::uint32_t stat_count, count, segment_len, segment_stride, stat_stride, segmented;
    std::uint32_t chunks, chunk_len, groups_x;
    std::uint32_t pstat_mod, pstat_mul, pelem_div, has_w, has_b;
    float eps;
    std::uint32_t nan_bits;
};
static_assert(sizeof(LayoutBlock) == 64);

constexpr std::uint32_t kFusedWgMin = 32;
constexpr std::uint32_t kStatsWg = 256;  // split statistics: workgroup size (capped by the device)

std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }
double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

constexpr WGPUBufferUsageFlags kStorage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
constexpr WGPUBufferUsageFlags kUniform = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;

}  // namespace

WgpuNormalizer::WgpuNormalizer(WgpuContext& ctx) : ctx_(&ctx), kernels_(ctx) {
    const WgpuLimits& l = ctx.limits();
    wg_max_ = pow2_floor(std::min({256u, l.max_workgroup_x, l.max_invocations}));
    if (wg_max_ < kFusedWgMin)
        throw DeviceError("the WebGPU device runs workgroups of at most " + std::to_string(wg_max_) +
                          " invocations (maxComputeWorkgroupSizeX, maxComputeInvocationsPerWorkgroup); " +
                          "normlab's kernels need " + std::to_string(kFusedWgMin));
}

void WgpuNormalizer::check_capacity(const Shape4& shape) const {
    shape.validate();
    const std::uint64_t bytes = static_cast<std::uint64_t>(shape.numel()) * 4;
    const WgpuLimits& l = ctx_->limits();
    if (bytes > l.max_storage_binding)
        throw InputError("the tensor " + shape.str() + " needs " + std::to_string(bytes) +
                         " bytes per buffer, more than this WebGPU device binds at once (" +
                         "maxStorageBufferBindingSize = " + std::to_string(l.max_storage_binding) + " bytes)");
    if (bytes > l.max_buffer)
        throw InputError("the tensor " + shape.str() + " needs " + std::to_string(bytes) +
                         " bytes per buffer, more than this WebGPU device allocates (maxBufferSize = " +
                         std::to_string(l.max_buffer) + " bytes)");
}

WgpuPlan WgpuNormalizer::plan(const StatLayout& layout, const NormSpec& spec) const {
    WgpuPlan p;
    const std::uint64_t count = static_cast<std::uint64_t>(layout.count());
    p.apply_chunk_len = kApplyWg * kApplyVpt;
    p.apply_chunks = static_cast<std::uint32_t>((count + p.apply_chunk_len - 1) / p.apply_chunk_len);
    if (!spec.uses_batch_stats()) {
        p.from_running = true;
        return p;
    }
    if (count <= std::uint64_t{wg_max_} * kMaxVpt) {
        // One workgroup per statistic, x read once.
        p.fused = true;
        p.stats_wg = std::clamp<std::uint32_t>(pow2_ceil((count + 7) / 8), kFusedWgMin, wg_max_);
        p.stats_vpt = std::clamp<std::uint32_t>(pow2_ceil((count + p.stats_wg - 1) / p.stats_wg), 1u, kMaxVpt);
        p.chunk_len = static_cast<std::uint32_t>(count);
    } else {
        // Chunks per workgroup, merged with Chan's formula, then applied.
        p.stats_wg = std::min(kStatsWg, wg_max_);
        p.stats_vpt = kMaxVpt;
        p.chunk_len = p.stats_wg * p.stats_vpt;
        p.chunks = static_cast<std::uint32_t>((count + p.chunk_len - 1) / p.chunk_len);
    }
    return p;
}

NormResult WgpuNormalizer::run(const Tensor& x, const NormSpec& spec, const NormParams& params) {
    x.shape.validate();
    const std::int64_t numel = x.shape.numel();
    if (static_cast<std::int64_t>(x.data.size()) != numel)
        throw InputError("tensor data has " + std::to_string(x.data.size()) + " values, its shape " + x.shape.str() +
                         " needs " + std::to_string(numel));
    if (spec.sync_devices > 0)
        throw InputError("SyncBN (sync_devices) is not in the browser edition yet; normlab-cli and the app run it");
    const StatLayout layout = make_layout(spec, x.shape);
    params.validate(spec, layout);
    check_capacity(x.shape);
    const WgpuPlan pl = plan(layout, spec);
    const bool rms = spec.method == Method::Rms;
    const double eps = spec.effective_eps();
    const std::int64_t S = layout.stat_count;

    // γ/β, the statistics' inputs (the shift K, or the running statistics in eval).
    std::vector<float> w(static_cast<std::size_t>(layout.param_count), 1.0f), b(w.size(), 0.0f);
    if (spec.has_weight() && !params.weight.empty()) w = params.weight;
    if (spec.has_bias() && !params.bias.empty()) b = params.bias;
    std::vector<float> stats_in(static_cast<std::size_t>(S) * 4, 0.0f);
    for (std::int64_t s = 0; s < S; ++s) {
        float* v = &stats_in[static_cast<std::size_t>(s) * 4];
        if (pl.from_running) {
            const double rm = params.running_mean.empty() ? 0.0 : params.running_mean[static_cast<std::size_t>(s)];
            const double rv = params.running_var.empty() ? 1.0 : params.running_var[static_cast<std::size_t>(s)];
            v[0] = static_cast<float>(rm);
            v[2] = static_cast<float>(rv);
            v[3] = static_cast<float>(1.0 / std::sqrt(rv + eps));
        } else if (!rms) {
            v[0] = x.data[static_cast<std::size_t>(layout.element_offset(s, 0))];
        }
    }
    const std::uint64_t bytes = static_cast<std::uint64_t>(numel) * 4;
    const std::uint64_t param_bytes = w.size() * 4, stat_bytes = static_cast<std::uint64_t>(S) * 16;
    const std::uint64_t partial_bytes = stat_bytes * pl.chunks;
    const std::uint64_t bind_max = ctx_->limits().max_storage_binding;
    auto fits = [&](std::uint64_t need, const std::string& what) {
        if (need > bind_max)
            throw InputError(what + " need " + std::to_string(need) + " bytes, more than this WebGPU device binds at " +
                             "once (maxStorageBufferBindingSize = " + std::to_string(bind_max) + " bytes)");
    };
    fits(param_bytes, "γ and β of shape " + dims_str(layout.param_shape));
    fits(stat_bytes, "the " + std::to_string(S) + " statistics");
    fits(partial_bytes, "the partial sums of the " + std::to_string(S) + " statistics");

    NormResult r;
    r.layout = layout;
    r.stats_from_running = pl.from_running;
    r.nonfinite_inputs = count_nonfinite(x.data);
    r.y.shape = x.shape;

    ctx_->begin_errors();
    auto t = std::chrono::steady_clock::now();
    ensure(x_, *ctx_, bytes, kStorage);
    ensure(y_, *ctx_, bytes, kStorage);
    ensure(w_, *ctx_, param_bytes, kStorage);
    ensure(b_, *ctx_, param_bytes, kStorage);
    ensure(stats_, *ctx_, stat_bytes, kStorage);
    ensure(partials_, *ctx_, partial_bytes, kStorage);
    ensure(uniform_stats_, *ctx_, sizeof(LayoutBlock), kUniform);
    ensure(uniform_merge_, *ctx_, sizeof(LayoutBlock), kUniform);
    ensure(uniform_apply_, *ctx_, sizeof(LayoutBlock), kUniform);
    x_.write(*ctx_, x.data.data(), bytes);
    w_.write(*ctx_, w.data(), param_bytes);
    b_.write(*ctx_, b.data(), param_bytes);
    stats_.write(*ctx_, stats_in.data(), stat_bytes);

    // A grid of workgroups no wider than maxComputeWorkgroupsPerDimension.
    const std::uint32_t max_x = std::max<std::uint32_t>(1, ctx_->limits().max_groups_per_dim);
    struct Grid {
        std::uint32_t x, y;
    };
    auto grid = [&](std::uint64_t groups) {
        const std::uint32_t gx =
            static_cast<std::uint32_t>(std::min<std::uint64_t>(std::max<std::uint64_t>(groups, 1), max_x));
        return Grid{gx, static_cast<std::uint32_t>((groups + gx - 1) / gx)};
    };
    LayoutBlock base{};
    base.stat_count = u32(S);
    base.count = u32(layout.count());
    base.segment_len = u32(layout.segment_len);
    base.segment_stride = u32(layout.segment_stride);
    base.stat_stride = u32(layout.stat_stride);
    base.segmented = layout.segments > 1 ? 1u : 0u;
    base.pstat_mod = u32(layout.param_stat_mod);
    base.pstat_mul = u32(layout.param_stat_mul);
    base.pelem_div = u32(layout.param_elem_div);
    base.has_w = spec.has_weight() ? 1u : 0u;
    base.has_b = spec.has_bias() ? 1u : 0u;
    base.eps = static_cast<float>(eps);
    base.nan_bits = 0x7fc00000u;
    LayoutBlock stats_block = base, apply_block = base;
    const Grid stats_grid = grid(static_cast<std::uint64_t>(S) * pl.chunks);
    const Grid merge_grid = grid(static_cast<std::uint64_t>(S));
    const Grid apply_grid = grid(static_cast<std::uint64_t>(S) * pl.apply_chunks);
    stats_block.chunks = pl.chunks;
    stats_block.chunk_len = pl.chunk_len;
    stats_block.groups_x = stats_grid.x;
    apply_block.chunks = pl.apply_chunks;
    apply_block.chunk_len = pl.apply_chunk_len;
    apply_block.groups_x = apply_grid.x;
    LayoutBlock merge_block = stats_block;  // the statistics pass's chunks, one workgroup per statistic
    merge_block.groups_x = merge_grid.x;
    uniform_stats_.write(*ctx_, &stats_block, sizeof(stats_block));
    uniform_merge_.write(*ctx_, &merge_block, sizeof(merge_block));
    uniform_apply_.write(*ctx_, &apply_block, sizeof(apply_block));
    r.upload_ms = ms_since(t);

    auto bind_group = [&](const WgpuBuffer& uniform) {
        const std::uint64_t pb = std::max<std::uint64_t>(param_bytes, 16);
        const std::pair<const WgpuBuffer*, std::uint64_t> b6[WgpuKernels::kBindings] = {
            {&x_, bytes},
            {&y_, bytes},
            {&w_, pb},
            {&b_, pb},
            {&stats_, std::max<std::uint64_t>(stat_bytes, 16)},
            {&partials_, std::max<std::uint64_t>(partial_bytes, 16)},
            {&uniform, sizeof(LayoutBlock)}};
        WGPUBindGroupEntry e[WgpuKernels::kBindings]{};
        for (std::uint32_t i = 0; i < WgpuKernels::kBindings; ++i) {
            e[i].binding = i;
            e[i].buffer = b6[i].first->handle();
            e[i].offset = 0;
            e[i].size = b6[i].second;
        }
        WGPUBindGroupDescriptor d{};
        d.layout = kernels_.bind_layout();
        d.entryCount = WgpuKernels::kBindings;
        d.entries = e;
        return wgpuDeviceCreateBindGroup(ctx_->device(), &d);
    };
    WGPUBindGroup g_stats = bind_group(uniform_stats_), g_merge = bind_group(uniform_merge_),
                  g_apply = bind_group(uniform_apply_);

    t = std::chrono::steady_clock::now();
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx_->device(), nullptr);
    auto pass = [&](const KernelVariant& v, WGPUBindGroup g, Grid gr) {
        WGPUComputePipeline p = kernels_.pipeline(v);
        WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, nullptr);
        wgpuComputePassEncoderSetPipeline(cp, p);
        wgpuComputePassEncoderSetBindGroup(cp, 0, g, 0, nullptr);
        wgpuComputePassEncoderDispatch(cp, gr.x, gr.y, 1);  // dispatchWorkgroups (the pre-js maps it)
        wgpuComputePassEncoderEnd(cp);
        wgpuComputePassEncoderRelease(cp);
    };
    // Passes in one submit: WebGPU orders storage writes between passes.
    if (!pl.from_running) {
        pass({KernelKind::Stats, pl.stats_wg, pl.stats_vpt, rms, pl.fused}, g_stats, stats_grid);
        if (!pl.fused) pass({KernelKind::Merge, 64, 1, rms, false}, g_merge, merge_grid);
    }
    if (!pl.fused) pass({KernelKind::Apply, kApplyWg, kApplyVpt, rms, false}, g_apply, apply_grid);
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, nullptr);
    wgpuQueueSubmit(ctx_->queue(), 1, &cmd);
    wgpuCommandBufferRelease(cmd);
    wgpuCommandEncoderRelease(enc);
    for (WGPUBindGroup g : {g_stats, g_merge, g_apply}) wgpuBindGroupRelease(g);

    std::vector<float> st(static_cast<std::size_t>(S) * 4);
    r.y.data.resize(static_cast<std::size_t>(numel));
    read_back(*ctx_, staging_, {{&stats_, st.data(), stat_bytes}, {&y_, r.y.data.data(), bytes}});
    r.dispatch_ms = ms_since(t);  // submit to readback, one wait: no timestamps here, gpu_ms stays 0
    ctx_->end_errors("normalizing " + x.shape.str() + " on WebGPU");

    r.rstd.resize(static_cast<std::size_t>(S));
    if (rms)
        r.mean_square.resize(static_cast<std::size_t>(S));
    else {
        r.mean.resize(static_cast<std::size_t>(S));
        r.var.resize(static_cast<std::size_t>(S));
    }
    for (std::int64_t s = 0; s < S; ++s) {
        const float* v = st.data() + s * 4;
        const auto i = static_cast<std::size_t>(s);
        if (rms) {
            r.mean_square[i] = v[2];
        } else {
            r.mean[i] = static_cast<double>(v[0]) + static_cast<double>(v[1]);
            r.var[i] = v[2];
        }
        r.rstd[i] = v[3];
    }
    update_running_stats(spec, params, r);
    return r;
}

}  // namespace normlab::webgpu
