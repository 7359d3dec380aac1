#include "normlab/webgpu/wgpu_normalizer.hpp"

#include "normlab/core/error.hpp"
#include "normlab/plan/forward_inputs.hpp"
#include "normlab/plan/pow2.hpp"
#include "wgpu_dispatch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace normlab::webgpu {
namespace {

// The fused kernel's narrowest workgroup (plan_forward's); an adapter with fewer invocations is refused.
constexpr std::uint32_t kFusedWgMin = 32;

}  // namespace

WgpuNormalizer::WgpuNormalizer(WgpuContext& ctx) : ctx_(&ctx), kernels_(ctx) {
    const WgpuLimits& l = ctx.limits();
    wg_max_ = plan::pow2_floor(std::min({256u, l.max_workgroup_x, l.max_invocations}));
    if (wg_max_ < kFusedWgMin)
        throw core::DeviceError("the WebGPU device runs workgroups of at most " + std::to_string(wg_max_) +
                                " invocations (maxComputeWorkgroupSizeX, maxComputeInvocationsPerWorkgroup); " +
                                "normlab's kernels need " + std::to_string(kFusedWgMin));
}

void WgpuNormalizer::check_capacity(const core::Shape4& shape) const {
    shape.validate();
    const std::uint64_t bytes = static_cast<std::uint64_t>(shape.numel()) * 4;
    const WgpuLimits& l = ctx_->limits();
    if (bytes > l.max_storage_binding)
        throw core::InputError("the tensor " + shape.str() + " needs " + std::to_string(bytes) +
                               " bytes per buffer, more than this WebGPU device binds at once (" +
                               "maxStorageBufferBindingSize = " + std::to_string(l.max_storage_binding) + " bytes)");
    if (bytes > l.max_buffer)
        throw core::InputError("the tensor " + shape.str() + " needs " + std::to_string(bytes) +
                               " bytes per buffer, more than this WebGPU device allocates (maxBufferSize = " +
                               std::to_string(l.max_buffer) + " bytes)");
}

plan::PlanDevice WgpuNormalizer::plan_device() const {
    plan::PlanDevice d = plan::wgsl_kernels();
    d.wg_max = wg_max_;
    d.cpu = ctx_->cpu_emulated();
    d.forward = long_stats_;
    d.backward = grad_path_;
    return d;
}

plan::KernelPlan WgpuNormalizer::plan(const core::StatLayout& layout, const core::NormSpec& spec) const {
    return plan::plan_forward(layout, spec, plan_device());
}

void WgpuNormalizer::submit(const plan::KernelPlan& pl, const BindGroup* groups, bool rms, std::uint64_t S) {
    const plan::DispatchGrid stats_grid = grid(*ctx_, S * pl.chunks), merge_grid = grid(*ctx_, S),
                             apply_grid = grid(*ctx_, S * pl.apply_chunks);
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx_->device(), nullptr);
    // Passes in one submit: WebGPU orders storage writes between passes.
    const bool split = !pl.from_running && !pl.fused && !pl.looped;
    if (!pl.from_running) {
        const KernelKind kind = pl.fused ? KernelKind::Stats : pl.looped ? KernelKind::Looped : KernelKind::Partial;
        KernelVariant stats{kind, pl.stats_wg, pl.stats_vpt, rms, pl.fused};
        stats.vec4 = pl.vec4;
        stats.lane_span = pl.lane_span;
        encode_pass(enc, kernels_.pipeline(stats), groups[0], stats_grid);
        if (split) encode_pass(enc, kernels_.pipeline({KernelKind::Merge, 64, 1, rms}), groups[1], merge_grid);
    }
    if (split || pl.from_running) {
        KernelVariant apply{KernelKind::Apply, plan::kApplyWg, plan::kApplyVpt, rms};
        apply.vec4 = pl.vec4;
        encode_pass(enc, kernels_.pipeline(apply), groups[2], apply_grid);
    }
    webgpu::submit(*ctx_, enc);
}

core::StatLayout WgpuNormalizer::checked_layout(const core::Tensor& x, const core::NormSpec& spec,
                                                const core::NormParams& params) const {
    const core::StatLayout layout = plan::checked_forward_layout(x, spec, params);
    check_capacity(x.shape);
    return layout;
}

// The run's buffers, grown when too small (kept between runs of one size).
void WgpuNormalizer::ensure_buffers(std::uint64_t bytes, std::uint64_t param_bytes, std::uint64_t stat_bytes,
                                    std::uint64_t partial_bytes) {
    ensure(x_, *ctx_, bytes, kStorage);
    ensure(y_, *ctx_, bytes, kStorage);
    ensure(w_, *ctx_, param_bytes, kStorage);
    ensure(b_, *ctx_, param_bytes, kStorage);
    ensure(stats_, *ctx_, stat_bytes, kStorage);
    ensure(partials_, *ctx_, partial_bytes, kStorage);
    for (WgpuBuffer* u : {&uniform_stats_, &uniform_merge_, &uniform_apply_})
        ensure(*u, *ctx_, sizeof(LayoutBlock), kUniform);
}

void WgpuNormalizer::load_values(const core::Tensor& x, const core::Tensor& y) {
    if (x.shape != y.shape || x.data.size() != y.data.size() ||
        x.data.size() != static_cast<std::size_t>(x.shape.numel()))
        throw core::InputError("load_values: x " + x.shape.str() + " and y " + y.shape.str() +
                               " differ in shape or size");
    check_capacity(x.shape);
    const std::uint64_t bytes = x.data.size() * 4;
    last_.reset();  // the statistics buffer is not these tensors'
    x_loaded_.reset();
    ensure(x_, *ctx_, bytes, kStorage);
    ensure(y_, *ctx_, bytes, kStorage);
    x_.write(*ctx_, x.data.data(), bytes);
    y_.write(*ctx_, y.data.data(), bytes);
    x_loaded_ = x.shape;
    x_nonfinite_ = core::count_nonfinite(x.data);
}

core::NormResult WgpuNormalizer::run(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                                     const plan::RunOptions& options) {
    const core::StatLayout layout = checked_layout(x, spec, params);
    const std::int64_t numel = x.shape.numel();
    const plan::KernelPlan pl = plan(layout, spec);
    const bool rms = spec.method == core::Method::Rms;
    const double eps = spec.effective_eps();
    const std::int64_t S = layout.stat_count;

    // γ/β and the statistics' inputs (the shift K, or the running statistics in eval).
    const std::size_t padded = padded_params(static_cast<std::size_t>(layout.param_count));
    const plan::ForwardParams host = plan::forward_params(spec, params, layout, padded);
    const std::vector<float> stats_in = plan::statistics_inputs(x, layout, params, pl.from_running, eps);
    const std::uint64_t bytes = static_cast<std::uint64_t>(numel) * 4;
    const std::uint64_t param_bytes = padded * 4, stat_bytes = static_cast<std::uint64_t>(S) * 16;
    const std::uint64_t partial_bytes = stat_bytes * pl.chunks;
    check_binding(*ctx_, param_bytes, "γ and β of shape " + core::dims_str(layout.param_shape));
    check_binding(*ctx_, stat_bytes, "the " + std::to_string(S) + " statistics");
    check_binding(*ctx_, partial_bytes, "the partial sums of the " + std::to_string(S) + " statistics");

    core::NormResult r;
    r.layout = layout;
    r.stats_from_running = pl.from_running;
    last_.reset();
    const bool upload_x = !(options.reuse_x && x_loaded_ == x.shape && x_.size() >= bytes);
    r.nonfinite_inputs = upload_x ? core::count_nonfinite(x.data) : x_nonfinite_;
    r.y.shape = x.shape;
    if (upload_x) x_loaded_.reset();
    ErrorScope errors(*ctx_);
    auto t = std::chrono::steady_clock::now();
    ensure_buffers(bytes, param_bytes, stat_bytes, partial_bytes);
    if (upload_x) x_.write(*ctx_, x.data.data(), bytes);
    x_loaded_ = x.shape;
    x_nonfinite_ = r.nonfinite_inputs;
    // The kernels read γ (β) only where the spec has them (LayoutBlock's has_w, has_b).
    if (spec.has_weight()) w_.write(*ctx_, host.weight.data(), param_bytes);
    if (spec.has_bias()) b_.write(*ctx_, host.bias.data(), param_bytes);
    stats_.write(*ctx_, stats_in.data(), stat_bytes);

    const LayoutBlock base = layout_block(layout, spec);
    const plan::DispatchGrid stats_grid = grid(*ctx_, static_cast<std::uint64_t>(S) * pl.chunks);
    const plan::DispatchGrid merge_grid = grid(*ctx_, static_cast<std::uint64_t>(S));
    const plan::DispatchGrid apply_grid = grid(*ctx_, static_cast<std::uint64_t>(S) * pl.apply_chunks);
    // The merge reads the statistics pass's chunks, one workgroup per statistic.
    const LayoutBlock blocks[3] = {for_pass(base, pl.chunks, pl.chunk_len, stats_grid),
                                   for_pass(base, pl.chunks, pl.chunk_len, merge_grid),
                                   for_pass(base, pl.apply_chunks, pl.apply_chunk_len, apply_grid)};
    const WgpuBuffer* uniforms[3] = {&uniform_stats_, &uniform_merge_, &uniform_apply_};
    BindGroup groups[3];
    for (int i = 0; i < 3; ++i) {
        uniforms[i]->write(*ctx_, &blocks[i], sizeof(LayoutBlock));
        groups[i] = bind_group(*ctx_, kernels_.bind_layout(KernelKind::Stats),
                               {{0, &x_, bytes},
                                {1, &y_, bytes},
                                {2, &w_, param_bytes},
                                {3, &b_, param_bytes},
                                {4, &stats_, stat_bytes},
                                {5, &partials_, partial_bytes},
                                {6, uniforms[i], sizeof(LayoutBlock)}});
    }
    r.upload_ms = plan::ms_since(t);

    t = std::chrono::steady_clock::now();
    submit(pl, groups, rms, static_cast<std::uint64_t>(S));

    std::vector<float> st(static_cast<std::size_t>(S) * 4);
    std::vector<Readback> reads{{&stats_, st.data(), stat_bytes}};
    if (options.read_y) {
        r.y.data.resize(static_cast<std::size_t>(numel));
        reads.push_back({&y_, r.y.data.data(), bytes});
    }
    read_back(*ctx_, staging_, reads);
    r.dispatch_ms = plan::ms_since(t);  // submit to readback, one wait: no timestamps here, gpu_ms stays 0
    errors.check("normalizing " + x.shape.str() + " on WebGPU");

    core::unpack_stats(r, st.data(), rms);
    last_ = Last{layout, spec, pl};
    core::update_running_stats(spec, params, r);
    return r;
}

}  // namespace normlab::webgpu
