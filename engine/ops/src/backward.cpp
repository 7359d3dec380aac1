#include "normlab/ops/backward.hpp"

#include "normalizer_detail.hpp"
#include "normlab/core/error.hpp"
#include "normlab/plan/backward_plan.hpp"

#include <chrono>
#include <functional>
#include <string>

namespace normlab::ops {
namespace {

constexpr std::uint32_t kMergeWg = 64;

}  // namespace

Backward::Backward(Normalizer& normalizer)
    : n_(&normalizer),
      kernels_(normalizer.context(), normalizer.macros(), 8, static_cast<std::uint32_t>(sizeof(Push))) {}

// The passes of one backward run (its plan: normlab/plan/backward_plan.hpp): per slab the statistics
// reduction, the merge, per apply slab ∂L/∂x; then the γ/β reduction per slab of the γ/β layout and
// its merge.
struct Backward::Passes : plan::BackwardPlan {
    Backward& b;
    Normalizer& n;
    const Normalizer::Prepared& p;
    Push param_push{};

    Passes(Backward& bw, const Normalizer::Prepared& prep)
        : plan::BackwardPlan(
              plan::plan_backward(prep.layout, prep.spec, prep.plan, prep.slabs.slabs.size(), bw.n_->plan_device())),
          b(bw),
          n(*bw.n_),
          p(prep) {
        const vk::DeviceSize range = n.context().limits().maxStorageBufferRange;
        for (vk::DeviceSize need : {stat_partial_bytes, param_partial_bytes})
            if (need > range)
                throw core::InputError("the backward's partial sums need " + std::to_string(need) +
                                       " bytes, more than one binding of this device holds (" + std::to_string(range) +
                                       " bytes, maxStorageBufferRange)");
        param_push = layout_push(plan::layout_params(pl.layout, p.spec));
        param_push.gstat_seg_mul = pl.seg_mul;
        param_push.gstat_p_div = pl.p_div;
    }

    // The looped kernel (one owner per workgroup: a subgroup, else up to 256 lanes).
    void looped_pass(vk::CommandBuffer cmd) {
        auto& k = b.kernels_.get("grad_looped.comp", constants({looped_wg, plan::kGradLoopedVpt, p.rms ? 1u : 0u,
                                                                looped_sg ? 1u : 0u, vec4 ? 1u : 0u, rows ? 1u : 0u,
                                                                one_gamma ? 1u : 0u, rows_per, run_gamma ? 1u : 0u},
                                                               false));
        const plan::Slab& slab = reduce_slabs.slabs.front();
        bind(k, slab, rows ? Sums::Rows : Sums::FusedStats);
        Push push = p.push;
        set_slab(push, slab, chunk_len, gamma_runs);  // chunks_total: the partials per statistic
        push.gstat_seg_mul = rows_per;
        push.gstat_p_div = row_blocks;
        plan::DispatchGrid g = gpu::group_grid(
            (static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) + rows_per - 1) / rows_per, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }

    // Specialization constants: the kernel's own (ids 0–9), then the layout's (ids 10–13).
    std::vector<std::uint32_t> constants(std::vector<std::uint32_t> own, bool param_pass) const {
        own.resize(10, 0u);
        if (param_pass)  // γ/β are not read; only the segmentation matters
            own.insert(own.end(), {pl.layout.segments > 1 ? 1u : 0u, 0u, 0u, 0u});
        else
            own.insert(own.end(), p.layout_constants.begin(), p.layout_constants.end());
        return own;
    }
    // The partials (binding 5) and sums (binding 7) each pass reads or writes.
    enum class Sums { Stats, Params, StatsToParams, FusedStats, Rows };
    void bind(gpu::ComputeKernel& k, const plan::Slab& slab, Sums sums) const {
        const vk::DeviceSize off = static_cast<vk::DeviceSize>(slab.flat_base) * 4,
                             len = static_cast<vk::DeviceSize>(slab.extent) * 4;
        auto whole = [](const gpu::GpuBuffer& buf, vk::DeviceSize bytes) {
            return vk::DescriptorBufferInfo{buf.handle(), 0, std::max<vk::DeviceSize>(bytes, 16)};
        };
        const bool param_partials = sums == Sums::Params || sums == Sums::Rows;
        const bool param_sums = sums == Sums::Params || sums == Sums::StatsToParams;
        const Normalizer::Buffers nb = n.buffers();
        k.bind_ranges({{nb.x.handle(), off, len},
                       {b.dx_.handle(), off, len},
                       whole(nb.weight, p.param_bytes),
                       whole(nb.bias, p.param_bytes),
                       whole(nb.stats, p.stat_bytes),
                       param_partials ? whole(b.param_partials_, param_partial_bytes)
                                      : whole(b.stat_partials_, stat_partial_bytes),
                       {b.dy_.handle(), off, len},
                       param_sums ? whole(b.param_sums_, param_sum_bytes) : whole(b.stat_means_, stat_mean_bytes)});
    }
    // The fused kernel: statistics sums, means and ∂L/∂x, plus the γ/β partials (one_gamma or rows).
    void fused_pass(vk::CommandBuffer cmd) {
        const plan::KernelPlan& plan = p.plan;
        auto& k = b.kernels_.get(
            "grad_fused.comp", constants({plan.stats_wg, plan.stats_vpt, p.rms ? 1u : 0u, plan.subgroup_stats ? 1u : 0u,
                                          plan.vec4 ? 1u : 0u, rows ? 1u : 0u, one_gamma ? 1u : 0u},
                                         false));
        const plan::Slab& slab = p.slabs.slabs.front();
        bind(k, slab, rows ? Sums::Rows : Sums::FusedStats);
        Push push = p.push;
        set_slab(push, slab, plan.chunk_len, 1);
        push.gstat_seg_mul = rows_per;
        push.gstat_p_div = row_blocks;
        const std::uint64_t owners =
            (static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) + rows_per - 1) / rows_per;
        plan::DispatchGrid g = gpu::group_grid((owners + plan.stats_per_wg - 1) / plan.stats_per_wg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    void reduce(vk::CommandBuffer cmd, const plan::Slab& slab, bool param_pass) {
        const bool cols = param_pass && columns;
        const std::uint32_t k_wg = param_pass ? param_wg : wg, per_wg = cols ? param_wg : owners_per_wg;
        auto& k = b.kernels_.get("grad_reduce.comp", constants({k_wg, vpt, p.rms ? 1u : 0u, param_pass ? 1u : 0u,
                                                                !cols && subgroup_owners ? 1u : 0u, cols ? 1u : 0u,
                                                                (param_pass ? param_vec4 : vec4) ? 1u : 0u,
                                                                !param_pass && params_from_stats ? 1u : 0u},
                                                               param_pass));
        bind(k, slab, param_pass ? Sums::Params : Sums::Stats);
        Push push = param_pass ? param_push : p.push;
        set_slab(push, slab, param_pass ? param_chunk_len : chunk_len,
                 param_pass ? param_slabs.chunks_total : reduce_slabs.chunks_total);
        const std::uint64_t owners = static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * slab.chunks;
        plan::DispatchGrid g = gpu::group_grid((owners + per_wg - 1) / per_wg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    // chunks: partials per group (0: the pass's own plan; the fused rows' blocks otherwise).
    void merge(vk::CommandBuffer cmd, bool param_pass, std::uint32_t chunks = 0) {
        const plan::SlabPlan& plan = param_pass ? param_slabs : reduce_slabs;
        const std::int64_t S = param_pass ? pl.layout.stat_count : p.layout.stat_count;
        auto& k = b.kernels_.get(
            "grad_merge.comp",
            constants({param_pass ? 0u : 1u, 0u, !param_pass && params_from_stats ? 1u : 0u}, param_pass));
        bind(k, plan.slabs.front(), param_pass ? Sums::Params : Sums::Stats);
        Push push = param_pass ? param_push : p.push;
        set_slab(push, plan::Slab{0, S, 0, 0, 0, 0, 0, 0}, param_pass ? param_chunk_len : chunk_len,
                 chunks ? chunks : plan.chunks_total);
        push.flat_base = plan::u32(plan.slabs.front().flat_base);
        plan::DispatchGrid g = gpu::group_grid((static_cast<std::uint64_t>(S) + kMergeWg - 1) / kMergeWg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    // ∂L/∂β and ∂L/∂γ of each γ/β index p from the statistics p + k·C, k < S / C.
    void merge_params_from_stats(vk::CommandBuffer cmd) {
        const std::int64_t P = p.layout.param_count;
        auto& k = b.kernels_.get("grad_merge.comp", constants({0u, 1u, 1u}, false));
        bind(k, reduce_slabs.slabs.front(), Sums::StatsToParams);
        Push push = p.push;
        set_slab(push, plan::Slab{0, P, 0, 0, 0, 0, 0, 0}, chunk_len,
                 looped  ? gamma_runs
                 : fused ? 1u
                         : reduce_slabs.chunks_total);
        push.e_lo = chunks_per_gamma;
        push.e_hi = plan::u32(p.layout.stat_count / p.layout.param_stat_mod);  // statistics per γ/β group index
        plan::DispatchGrid g = gpu::group_grid((static_cast<std::uint64_t>(P) + kMergeWg - 1) / kMergeWg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    void apply(vk::CommandBuffer cmd, const plan::Slab& slab) {
        auto& k =
            b.kernels_.get("grad_apply.comp", constants({apply_wg, plan::kApplyVpt, p.rms ? 1u : 0u,
                                                         p.plan.from_running ? 1u : 0u, vec4 ? 1u : 0u, rows ? 1u : 0u},
                                                        false));
        bind(k, slab, rows ? Sums::Rows : Sums::Stats);
        Push push = p.push;
        set_slab(push, slab, apply_chunk_len(), apply_slabs.chunks_total);
        push.gstat_seg_mul = rows_per;
        push.gstat_p_div = row_blocks;
        const std::uint64_t blocks =
            (static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) + rows_per - 1) / rows_per;
        plan::DispatchGrid g = gpu::group_grid(blocks * slab.chunks, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
};

void Backward::check(const Normalizer::Prepared& p, const core::Tensor& dy) const {
    const core::Shape4& shape = p.layout.shape;
    core::check_grad_shape(shape, dy.shape.dims());
    if (dy.data.size() != static_cast<std::size_t>(shape.numel()))
        throw core::InputError("dy has " + std::to_string(dy.data.size()) + " values, its shape needs " +
                               std::to_string(shape.numel()));
    const std::uint64_t heap = n_->context().device_memory_bytes();
    if (4 * p.bytes > heap)
        throw core::InputError("the backward of " + shape.str() + " needs 4 x " + std::to_string(p.bytes) +
                               " bytes (x, y, dy, dx), more than the device's " + std::to_string(heap) +
                               " bytes of memory");
}

void Backward::upload(const Passes& passes, const core::Tensor& dy) {
    const gpu::VulkanContext& ctx = n_->context();
    gpu::ensure_compute_buffer(ctx, dy_, passes.p.bytes);
    gpu::ensure_compute_buffer(ctx, dx_, passes.p.bytes);
    gpu::ensure_compute_buffer(ctx, stat_partials_, passes.stat_partial_bytes);
    gpu::ensure_compute_buffer(ctx, stat_means_, passes.stat_mean_bytes);
    gpu::ensure_compute_buffer(ctx, param_partials_, passes.param_partial_bytes);
    gpu::ensure_compute_buffer(ctx, param_sums_, passes.param_sum_bytes);
    n_->staging().upload({{&dy_, 0, dy.data.data(), passes.p.bytes}});
}

double Backward::dispatch(Passes& passes) {
    const bool eval = passes.p.plan.from_running;
    gpu::CommandRecorder& recorder = n_->recorder();
    double gpu_ms = 0.0;
    auto submit = [&](const std::function<void(vk::CommandBuffer)>& dispatches) {
        vk::CommandBuffer cmd = recorder.begin();
        recorder.start_timer();
        dispatches(cmd);
        recorder.stop_timer();
        // Makes the shaders' writes of dx and the γ/β sums visible to the host's reads.
        gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                            vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
        gpu_ms += recorder.submit();
    };
    const bool from_stats = passes.params_from_stats;
    const bool one_window = passes.reduce_slabs.slabs.size() == 1 && passes.apply_slabs.slabs.size() == 1 &&
                            (from_stats || passes.param_slabs.slabs.size() == 1);
    if (passes.fused || passes.looped) {
        submit([&](vk::CommandBuffer cmd) {
            if (passes.fused)
                passes.fused_pass(cmd);
            else
                passes.looped_pass(cmd);
            shader_to_shader(cmd);  // the γ/β partials written before the merge reads them
            if (passes.params_from_stats) return passes.merge_params_from_stats(cmd);
            if (passes.rows) return passes.merge(cmd, true, passes.row_blocks);
            // The γ/β pass reads only x, dy and the statistics.
            passes.reduce(cmd, passes.param_slabs.slabs.front(), true);
            shader_to_shader(cmd);  // the γ/β pass's partials written before their merge reads them
            passes.merge(cmd, true);
        });
        return gpu_ms;
    }
    if (one_window) {
        submit([&](vk::CommandBuffer cmd) {
            if (!eval) {
                passes.reduce(cmd, passes.reduce_slabs.slabs.front(), false);
                shader_to_shader(cmd);  // the statistics' partials before their merge
                passes.merge(cmd, false);
                shader_to_shader(cmd);  // the means of dy and dy·x̂ before the apply reads them
            }
            passes.apply(cmd, passes.apply_slabs.slabs.front());
            if (passes.rows) {
                shader_to_shader(cmd);  // the apply's γ/β partials written before the merge reads them
                return passes.merge(cmd, true, passes.row_blocks);
            }
            // The apply kernel may write binding 5 (rows partials; here the statistics' partials, bound
            // but not written): the γ/β sums read them after it.
            if (from_stats) {
                shader_to_shader(cmd);
                return passes.merge_params_from_stats(cmd);
            }
            // The γ/β pass reads only x, dy and the statistics: no barrier against ∂L/∂x's writes.
            passes.reduce(cmd, passes.param_slabs.slabs.front(), true);
            shader_to_shader(cmd);  // the γ/β pass's partials before their merge
            passes.merge(cmd, true);
        });
        return gpu_ms;
    }
    // One submit per slab: each binds its own window of x, dy and dx.
    if (!eval) {
        for (const plan::Slab& s : passes.reduce_slabs.slabs)
            submit([&](vk::CommandBuffer c) { passes.reduce(c, s, false); });
        submit([&](vk::CommandBuffer c) { passes.merge(c, false); });
    }
    for (const plan::Slab& s : passes.apply_slabs.slabs) submit([&](vk::CommandBuffer c) { passes.apply(c, s); });
    if (from_stats) {
        submit([&](vk::CommandBuffer c) { passes.merge_params_from_stats(c); });
        return gpu_ms;
    }
    for (const plan::Slab& s : passes.param_slabs.slabs)
        submit([&](vk::CommandBuffer c) { passes.reduce(c, s, true); });
    submit([&](vk::CommandBuffer c) { passes.merge(c, true); });
    return gpu_ms;
}

void Backward::read_back(const Passes& passes, core::GradResult& r, bool read_dx) {
    const Normalizer::Prepared& p = passes.p;
    const bool eval = p.plan.from_running;
    const auto P = static_cast<std::size_t>(p.layout.param_count);
    std::vector<float> sums(P * 4);
    const auto S = static_cast<std::size_t>(p.layout.stat_count);
    std::vector<float> means(eval ? 0 : S * 4);
    std::vector<gpu::DeviceToHost> copies{{&param_sums_, 0, sums.data(), passes.param_sum_bytes}};
    if (!eval) copies.push_back({&stat_means_, 0, means.data(), passes.stat_mean_bytes});
    r.dx.shape = p.layout.shape;
    if (read_dx && dx_.mappable()) {
        const auto* d = static_cast<const float*>(dx_.data());
        r.dx.data.assign(d, d + p.bytes / 4);
    } else if (read_dx) {
        r.dx.data.resize(static_cast<std::size_t>(p.bytes / 4));
        copies.push_back({&dx_, 0, r.dx.data.data(), p.bytes});
    }
    n_->staging().download(copies);
    if (p.spec.has_bias())
        for (std::size_t i = 0; i < P; ++i) r.dbias.push_back(sums[i * 4]);
    if (p.spec.has_weight())
        for (std::size_t i = 0; i < P; ++i) r.dweight.push_back(sums[i * 4 + 1]);
    for (std::size_t i = 0; i < means.size(); i += 4) {
        r.mean_g.push_back(means[i]);
        r.mean_gxhat.push_back(means[i + 1]);
    }
}

// check → upload dy → dispatch → read back, each timed.
core::GradResult Backward::run(const core::Tensor& dy, bool read_dx) {
    const Normalizer::Prepared* last = n_->last_run();
    if (!last) throw core::InputError("the backward pass needs a forward run first");
    check(*last, dy);
    Passes passes(*this, *last);
    last_path_ = passes.eval ? "eval" : passes.fused ? "fused" : passes.looped ? "looped" : "split";
    core::GradResult r;
    auto t = std::chrono::steady_clock::now();
    upload(passes, dy);
    r.upload_ms = plan::ms_since(t);
    t = std::chrono::steady_clock::now();
    r.gpu_ms = dispatch(passes);
    r.dispatch_ms = plan::ms_since(t);
    t = std::chrono::steady_clock::now();
    read_back(passes, r, read_dx);
    r.readback_ms = plan::ms_since(t);
    return r;
}

core::GradResult run_backward(Normalizer& n, Backward& b, const core::Tensor& x, const core::Tensor& dy,
                              const core::NormSpec& spec, const core::NormParams& params) {
    core::check_grad_shape(x.shape, dy.shape.dims());
    plan::RunOptions o;
    o.read_y = false;
    n.run(x, spec, params, o);
    return b.run(dy);
}

}  // namespace normlab::ops
