#include "normlab/webgpu/wgpu_backward.hpp"

#include "normlab/core/error.hpp"
#include "normlab/plan/backward_plan.hpp"
#include "wgpu_dispatch.hpp"

#include <algorithm>
#include <chrono>

namespace normlab::webgpu {
namespace {

// The partials (binding 5) and merged sums (binding 8) a pass reads or writes, as the Vulkan
// Backward's: the statistics' (Stats), the γ/β pass's (Params), the γ/β sums from the statistics'
// partials (StatsToParams), the rows' γ/β partials beside the statistics' means (Rows).
enum class Sums { Stats, Params, StatsToParams, Rows };

}  // namespace

// One pass of a run: its kernel, uniform block, grid and sums.
struct WgpuBackward::Pass {
    KernelVariant kernel;
    LayoutBlock block;
    plan::DispatchGrid grid;
    Sums sums;
};

// The shared plan (normlab/plan/backward_plan.hpp) as this backend's passes, in order: the fused or
// looped kernel, or the statistics' reduce and merge and ∂L/∂x (BatchNorm eval: ∂L/∂x alone); then
// ∂L/∂γ, ∂L/∂β: the merge of the statistics' partials (params_from_stats), of the rows' partials
// (rows), or the γ/β pass's reduce and merge.
struct WgpuBackward::Plan : plan::BackwardPlan {
    std::vector<Pass> passes;
    std::uint64_t bytes = 0, param_bytes = 0, stat_bytes = 0;

    Plan(const WgpuNormalizer& n, const WgpuNormalizer::Last& last)
        : plan::BackwardPlan(plan::plan_backward(last.layout, last.spec, last.plan, 1, n.plan_device())) {
        const WgpuContext& ctx = n.context();
        const core::StatLayout& l = last.layout;
        const std::uint64_t S = static_cast<std::uint64_t>(l.stat_count), P = static_cast<std::uint64_t>(l.param_count);
        bytes = static_cast<std::uint64_t>(l.shape.numel()) * 4;
        param_bytes = P * 4;
        stat_bytes = S * 16;
        check_binding(ctx, stat_partial_bytes,
                      "the backward's partial sums of the " + std::to_string(S) + " statistics");
        check_binding(ctx, param_partial_bytes, "the backward's partial sums of γ and β");
        LayoutBlock base = layout_block(l, last.spec);
        base.gstat_seg_mul = rows_per;  // ROWS: statistics per block, and the blocks
        base.gstat_p_div = row_blocks;
        const bool rms = last.spec.method == core::Method::Rms;
        gradients(ctx, last.plan, base, rms);
        const plan::DispatchGrid pgrid = grid(ctx, (P + 63) / 64);
        KernelVariant pmerge{KernelKind::GradMerge, 64, 1, rms};
        if (params_from_stats) {  // ∂L/∂γ, ∂L/∂β from the statistics' partials, per γ/β index
            pmerge.from_stats = true;
            const std::uint32_t per_stat = looped ? gamma_runs : fused ? 1u : reduce_slabs.chunks_total;
            LayoutBlock b = for_pass(base, per_stat, chunk_len, pgrid);
            b.stat_count = static_cast<std::uint32_t>(P);
            b.gstat_seg_mul = chunks_per_gamma;
            b.gstat_p_div = static_cast<std::uint32_t>(S / static_cast<std::uint64_t>(l.param_stat_mod));
            passes.push_back({pmerge, b, pgrid, Sums::StatsToParams});
            return;
        }
        LayoutBlock pbase = layout_block(pl.layout, last.spec);
        pbase.gstat_seg_mul = pl.seg_mul;
        pbase.gstat_p_div = pl.p_div;
        pmerge.param_pass = true;
        if (rows) {  // the rows' partials, row_blocks per γ/β index
            passes.push_back({pmerge, for_pass(pbase, row_blocks, 0, pgrid), pgrid, Sums::Params});
            return;
        }
        // The γ/β pass: columns (layer/rms) are one invocation per (γ/β index, chunk of rows).
        const std::uint32_t param_chunks = param_slabs.chunks_total;
        const std::uint64_t param_owners = P * param_chunks;
        const plan::DispatchGrid rgrid = grid(ctx, columns ? (param_owners + param_wg - 1) / param_wg : param_owners);
        KernelVariant preduce{KernelKind::GradReduce, param_wg, columns ? 1u : vpt, rms};
        preduce.param_pass = true;
        preduce.columns = columns;
        passes.push_back({preduce, for_pass(pbase, param_chunks, param_chunk_len, rgrid), rgrid, Sums::Params});
        passes.push_back({pmerge, for_pass(pbase, param_chunks, param_chunk_len, pgrid), pgrid, Sums::Params});
    }

    // The passes up to ∂L/∂x: fused, looped, or reduce, merge and apply.
    void gradients(const WgpuContext& ctx, const plan::KernelPlan& forward, const LayoutBlock& base, bool rms) {
        const std::uint64_t S = base.stat_count, count = base.count;
        const std::uint64_t owners = (S + rows_per - 1) / rows_per;  // blocks of rows_per statistics (1 unless rows)
        const Sums first = rows ? Sums::Rows : Sums::Stats;
        if (fused) {  // x and dy read once: the statistic's means and ∂L/∂x in one kernel
            KernelVariant k{KernelKind::GradFused, forward.stats_wg, forward.stats_vpt, rms};
            k.vec4 = forward.vec4;
            k.one_gamma = one_gamma;
            k.rows = rows;
            const plan::DispatchGrid g = grid(ctx, owners);
            passes.push_back({k, for_pass(base, 1, static_cast<std::uint32_t>(count), g), g, first});
            return;
        }
        if (looped) {  // x and dy read twice by one workgroup: no statistics' partials, no merge pass
            KernelVariant k{KernelKind::GradLooped, looped_wg, plan::kGradLoopedVpt, rms};
            k.one_gamma = one_gamma;
            k.run_gamma = run_gamma;
            k.rows = rows;
            const plan::DispatchGrid g = grid(ctx, owners);
            passes.push_back({k, for_pass(base, gamma_runs, static_cast<std::uint32_t>(count), g), g, first});
            return;
        }
        if (!eval) {
            const std::uint32_t chunks = reduce_slabs.chunks_total;
            KernelVariant reduce{KernelKind::GradReduce, wg, vpt, rms};
            reduce.chunk_gamma = params_from_stats;
            const plan::DispatchGrid g = grid(ctx, S * chunks), mg = grid(ctx, (S + 63) / 64);
            passes.push_back({reduce, for_pass(base, chunks, chunk_len, g), g, Sums::Stats});
            KernelVariant merge{KernelKind::GradMerge, 64, 1, rms};
            merge.chunk_gamma = params_from_stats;
            passes.push_back({merge, for_pass(base, chunks, chunk_len, mg), mg, Sums::Stats});
        }
        const auto apply_chunks = static_cast<std::uint32_t>((count + apply_chunk_len() - 1) / apply_chunk_len());
        KernelVariant apply{KernelKind::GradApply, apply_wg, plan::kApplyVpt, rms};
        apply.eval = eval;
        apply.rows = rows;
        const plan::DispatchGrid g = grid(ctx, owners * apply_chunks);
        passes.push_back({apply, for_pass(base, apply_chunks, apply_chunk_len(), g), g, first});
    }
};

WgpuBackward::WgpuBackward(WgpuNormalizer& n) : n_(&n) {
    const std::uint32_t have = n.context().limits().max_storage_buffers;
    if (have < WgpuKernels::kGradStorage)
        throw core::DeviceError(
            "the WebGPU device binds " + std::to_string(have) +
            " storage buffers per shader stage (maxStorageBuffersPerShaderStage); the backward needs " +
            std::to_string(WgpuKernels::kGradStorage));
}

void WgpuBackward::encode(const Plan& p, const std::vector<BindGroup>& groups) {
    const WgpuContext& ctx = n_->context();
    WgpuKernels& kernels = n_->kernels();
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device(), nullptr);
    // Passes in one submit, in order: WebGPU makes each pass's storage writes visible to the next.
    for (std::size_t i = 0; i < p.passes.size(); ++i)
        encode_pass(enc, kernels.pipeline(p.passes[i].kernel), groups[i], p.passes[i].grid);
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, nullptr);
    wgpuQueueSubmit(ctx.queue(), 1, &cmd);
    wgpuCommandBufferRelease(cmd);
    wgpuCommandEncoderRelease(enc);
}

core::GradResult WgpuBackward::run(const core::Tensor& dy) {
    if (!n_->last_run()) throw core::InputError("the backward pass needs a forward run first");
    const WgpuNormalizer::Last& last = *n_->last_run();
    const core::Shape4& shape = last.layout.shape;
    const auto dims = dy.shape.dims();
    core::check_grad_shape(shape, {dims.begin(), dims.end()});
    if (dy.data.size() != static_cast<std::size_t>(shape.numel()))
        throw core::InputError("dy has " + std::to_string(dy.data.size()) + " values, its shape needs " +
                               std::to_string(shape.numel()));
    const Plan p(*n_, last);
    last_path_ = p.eval ? "eval" : p.fused ? "fused" : p.looped ? "looped" : "split";
    const WgpuContext& ctx = n_->context();
    WgpuKernels& kernels = n_->kernels();
    const bool eval = p.eval;
    core::GradResult r;

    ErrorScope errors(n_->context());
    auto t = std::chrono::steady_clock::now();
    ensure(dy_, ctx, p.bytes, kStorage);
    ensure(dx_, ctx, p.bytes, kStorage);
    ensure(stat_partials_, ctx, p.stat_partial_bytes, kStorage);
    ensure(stat_means_, ctx, p.stat_bytes, kStorage);
    ensure(param_partials_, ctx, p.param_partial_bytes, kStorage);
    ensure(param_sums_, ctx, p.param_sum_bytes, kStorage);
    dy_.write(ctx, dy.data.data(), p.bytes);
    if (uniforms_.size() < p.passes.size()) uniforms_.resize(p.passes.size());
    std::vector<BindGroup> groups;
    for (std::size_t i = 0; i < p.passes.size(); ++i) {
        const Sums sums = p.passes[i].sums;
        const bool param_partials = sums == Sums::Params || sums == Sums::Rows;
        const bool param_sums = sums == Sums::Params || sums == Sums::StatsToParams;
        ensure(uniforms_[i], ctx, sizeof(LayoutBlock), kUniform);
        uniforms_[i].write(ctx, &p.passes[i].block, sizeof(LayoutBlock));
        groups.push_back(
            bind_group(ctx, kernels.bind_layout(KernelKind::GradReduce),
                       {{0, &n_->buffers().x, p.bytes},
                        {1, &dx_, p.bytes},
                        {2, &n_->buffers().weight, WgpuNormalizer::padded_params(p.param_bytes / 4) * 4},
                        {4, &n_->buffers().stats, p.stat_bytes},
                        {5, param_partials ? &param_partials_ : &stat_partials_,
                         param_partials ? p.param_partial_bytes : p.stat_partial_bytes},
                        {6, &uniforms_[i], sizeof(LayoutBlock)},
                        {7, &dy_, p.bytes},
                        {8, param_sums ? &param_sums_ : &stat_means_, param_sums ? p.param_sum_bytes : p.stat_bytes}}));
    }
    r.upload_ms = plan::ms_since(t);

    t = std::chrono::steady_clock::now();
    encode(p, groups);

    const auto P = static_cast<std::size_t>(last.layout.param_count),
               S = static_cast<std::size_t>(last.layout.stat_count);
    std::vector<float> sums(P * 4), means(eval ? 0 : S * 4);
    r.dx.shape = shape;
    r.dx.data.resize(static_cast<std::size_t>(shape.numel()));
    std::vector<Readback> reads{{&dx_, r.dx.data.data(), p.bytes}, {&param_sums_, sums.data(), P * 16}};
    if (!eval) reads.push_back({&stat_means_, means.data(), S * 16});
    read_back(ctx, n_->staging(), reads);
    r.dispatch_ms = plan::ms_since(t);  // submit to readback, one wait (no timestamps here)
    errors.check("the backward of " + shape.str() + " on WebGPU");

    if (last.spec.has_bias())
        for (std::size_t i = 0; i < P; ++i) r.dbias.push_back(sums[i * 4]);
    if (last.spec.has_weight())
        for (std::size_t i = 0; i < P; ++i) r.dweight.push_back(sums[i * 4 + 1]);
    for (std::size_t i = 0; i < means.size(); i += 4) {
        r.mean_g.push_back(means[i]);
        r.mean_gxhat.push_back(means[i + 1]);
    }
    return r;
}

}  // namespace normlab::webgpu
