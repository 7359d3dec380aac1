#include "normlab/webgpu/wgpu_backward.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/backward_plan.hpp"
#include "wgpu_dispatch.hpp"

#include <algorithm>
#include <chrono>

namespace normlab::webgpu {
// The shared plan (normlab/core/backward_plan.hpp) with this backend's grids and uniform blocks.
struct WgpuBackward::Plan : BackwardPlan {
    KernelPlan forward;  // the fused kernel's workgroup, accesses and vec4 are the forward's
    std::uint32_t apply_chunks = 1;
    DispatchGrid stats_grid, params_grid, stat_merge, param_merge, apply;
    std::uint64_t bytes = 0, param_bytes = 0, stat_bytes = 0;
    LayoutBlock blocks[5];  // stats reduce, stats merge, apply, γ/β reduce, γ/β merge

    Plan(const WgpuNormalizer& n, const WgpuNormalizer::Last& last)
        : BackwardPlan(plan_backward(last.layout, last.spec, last.plan, 1, n.plan_device())), forward(last.plan) {
        const WgpuContext& ctx = n.context();
        const StatLayout& l = last.layout;
        const std::uint64_t S = static_cast<std::uint64_t>(l.stat_count), P = static_cast<std::uint64_t>(l.param_count);
        const std::uint64_t count = static_cast<std::uint64_t>(l.count());
        const std::uint32_t stat_chunks = reduce_slabs.chunks_total, param_chunks = param_slabs.chunks_total;
        apply_chunks = static_cast<std::uint32_t>((count + apply_chunk_len() - 1) / apply_chunk_len());
        stats_grid = grid(ctx, fused || looped ? S : S * stat_chunks);  // fused, looped: one workgroup per statistic
        // Columns: one invocation per (γ/β index, chunk of rows), param_wg to a workgroup.
        const std::uint64_t param_owners = P * param_chunks;
        params_grid = grid(ctx, columns ? (param_owners + param_wg - 1) / param_wg : param_owners);
        stat_merge = grid(ctx, (S + 63) / 64);
        param_merge = grid(ctx, (P + 63) / 64);
        apply = grid(ctx, S * apply_chunks);
        bytes = static_cast<std::uint64_t>(l.shape.numel()) * 4;
        param_bytes = P * 4;
        stat_bytes = S * 16;
        check_binding(ctx, stat_partial_bytes,
                      "the backward's partial sums of the " + std::to_string(S) + " statistics");
        check_binding(ctx, param_partial_bytes, "the backward's partial sums of γ and β");
        const LayoutBlock base = layout_block(l, last.spec);
        LayoutBlock pbase = layout_block(pl.layout, last.spec);
        pbase.gstat_seg_mul = pl.seg_mul;
        pbase.gstat_p_div = pl.p_div;
        blocks[0] = fused || looped ? for_pass(base, 1, static_cast<std::uint32_t>(count), stats_grid)
                                    : for_pass(base, stat_chunks, chunk_len, stats_grid);
        blocks[1] = for_pass(base, stat_chunks, chunk_len, stat_merge);
        blocks[2] = for_pass(base, apply_chunks, apply_chunk_len(), apply);
        blocks[3] = for_pass(pbase, param_chunks, param_chunk_len, params_grid);
        blocks[4] = for_pass(pbase, param_chunks, param_chunk_len, param_merge);
    }
};

WgpuBackward::WgpuBackward(WgpuNormalizer& n) : n_(&n), uniforms_(5) {
    const std::uint32_t have = n.context().limits().max_storage_buffers;
    if (have < WgpuKernels::kGradStorage)
        throw DeviceError("the WebGPU device binds " + std::to_string(have) +
                          " storage buffers per shader stage (maxStorageBuffersPerShaderStage); the backward needs " +
                          std::to_string(WgpuKernels::kGradStorage));
}

void WgpuBackward::encode(const Plan& p, const BindGroup* groups, bool rms, bool eval) {
    const WgpuContext& ctx = n_->context();
    WgpuKernels& kernels = n_->kernels();
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device(), nullptr);
    // Passes in one submit, in order: WebGPU makes each pass's storage writes visible to the next.
    if (p.fused) {  // x and dy read once: the statistic's means and ∂L/∂x in one kernel
        KernelVariant fused{KernelKind::GradFused, p.forward.stats_wg, p.forward.stats_vpt, rms};
        fused.vec4 = p.forward.vec4;
        encode_pass(enc, kernels.pipeline(fused), groups[0], p.stats_grid);
    } else if (p.looped) {  // x and dy read twice by one workgroup: no partials, no merge pass
        encode_pass(enc, kernels.pipeline({KernelKind::GradLooped, p.looped_wg, 1, rms}), groups[0], p.stats_grid);
    } else {
        if (!eval) {
            encode_pass(enc, kernels.pipeline({KernelKind::GradReduce, p.wg, p.vpt, rms}), groups[0], p.stats_grid);
            encode_pass(enc, kernels.pipeline({KernelKind::GradMerge, 64, 1, rms}), groups[1], p.stat_merge);
        }
        KernelVariant apply{KernelKind::GradApply, p.apply_wg, kApplyVpt, rms};
        apply.eval = eval;
        encode_pass(enc, kernels.pipeline(apply), groups[2], p.apply);
    }
    KernelVariant preduce{KernelKind::GradReduce, p.param_wg, p.columns ? 1u : p.vpt, rms};
    preduce.param_pass = true;
    preduce.columns = p.columns;
    encode_pass(enc, kernels.pipeline(preduce), groups[3], p.params_grid);
    KernelVariant pmerge{KernelKind::GradMerge, 64, 1, rms};
    pmerge.param_pass = true;
    encode_pass(enc, kernels.pipeline(pmerge), groups[4], p.param_merge);
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, nullptr);
    wgpuQueueSubmit(ctx.queue(), 1, &cmd);
    wgpuCommandBufferRelease(cmd);
    wgpuCommandEncoderRelease(enc);
}

GradResult WgpuBackward::run(const Tensor& dy) {
    if (!n_->last_run()) throw InputError("the backward pass needs a forward run first");
    const WgpuNormalizer::Last& last = *n_->last_run();
    const Shape4& shape = last.layout.shape;
    const auto dims = dy.shape.dims();
    check_grad_shape(shape, {dims.begin(), dims.end()});
    if (dy.data.size() != static_cast<std::size_t>(shape.numel()))
        throw InputError("dy has " + std::to_string(dy.data.size()) + " values, its shape needs " +
                         std::to_string(shape.numel()));
    const Plan p(*n_, last);
    last_path_ = p.eval ? "eval" : p.fused ? "fused" : p.looped ? "looped" : "split";
    const WgpuContext& ctx = n_->context();
    WgpuKernels& kernels = n_->kernels();
    const bool rms = last.spec.method == Method::Rms, eval = p.eval;
    GradResult r;

    ErrorScope errors(n_->context());
    auto t = std::chrono::steady_clock::now();
    ensure(dy_, ctx, p.bytes, kStorage);
    ensure(dx_, ctx, p.bytes, kStorage);
    ensure(stat_partials_, ctx, p.stat_partial_bytes, kStorage);
    ensure(stat_means_, ctx, p.stat_bytes, kStorage);
    ensure(param_partials_, ctx, p.param_partial_bytes, kStorage);
    ensure(param_sums_, ctx, p.param_bytes * 4, kStorage);
    dy_.write(ctx, dy.data.data(), p.bytes);
    BindGroup groups[5];
    for (int i = 0; i < 5; ++i) {
        ensure(uniforms_[static_cast<std::size_t>(i)], ctx, sizeof(LayoutBlock), kUniform);
        uniforms_[static_cast<std::size_t>(i)].write(ctx, &p.blocks[i], sizeof(LayoutBlock));
        const bool param_pass = i >= 3;
        groups[i] =
            bind_group(ctx, kernels.bind_layout(KernelKind::GradReduce),
                       {{0, &n_->buffers().x, p.bytes},
                        {1, &dx_, p.bytes},
                        {2, &n_->buffers().weight, WgpuNormalizer::padded_params(p.param_bytes / 4) * 4},
                        {4, &n_->buffers().stats, p.stat_bytes},
                        {5, param_pass ? &param_partials_ : &stat_partials_,
                         param_pass ? p.param_partial_bytes : p.stat_partial_bytes},
                        {6, &uniforms_[static_cast<std::size_t>(i)], sizeof(LayoutBlock)},
                        {7, &dy_, p.bytes},
                        {8, param_pass ? &param_sums_ : &stat_means_, param_pass ? p.param_bytes * 4 : p.stat_bytes}});
    }
    r.upload_ms = ms_since(t);

    t = std::chrono::steady_clock::now();
    encode(p, groups, rms, eval);

    const auto P = static_cast<std::size_t>(last.layout.param_count),
               S = static_cast<std::size_t>(last.layout.stat_count);
    std::vector<float> sums(P * 4), means(eval ? 0 : S * 4);
    r.dx.shape = shape;
    r.dx.data.resize(static_cast<std::size_t>(shape.numel()));
    std::vector<Readback> reads{{&dx_, r.dx.data.data(), p.bytes}, {&param_sums_, sums.data(), P * 16}};
    if (!eval) reads.push_back({&stat_means_, means.data(), S * 16});
    read_back(ctx, n_->staging(), reads);
    r.dispatch_ms = ms_since(t);  // submit to readback, one wait (no timestamps here)
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
