#include "normlab/ops/backward.hpp"

#include "normalizer_detail.hpp"
#include "normlab/core/error.hpp"
#include "normlab/core/param_layout.hpp"
#include "normlab/core/pow2.hpp"

#include <chrono>
#include <functional>
#include <string>

namespace normlab {
namespace {

constexpr std::uint32_t kReduceVpt = 32, kMergeWg = 64, kColumnRows = 64, kRowsPer = 32;
// grad_looped.comp: packs per lane in one tile of its second loop, the most statistics per owner
// (its private means), and the owners a GPU needs busy before one owner per statistic beats
// the split passes (a few per compute unit of a large GPU). A CPU device needs no more than one:
// on lavapipe the looped kernel was as fast as the split passes or faster at 1, 2 and 4 owners
// on 2 threads (docs/bench/lavapipe-backward.md).
constexpr std::uint32_t kLoopedVpt = 8, kLoopedMaxRows = 64, kGpuLoopedOwners = 2048, kCpuLoopedOwners = 1;
// The longest statistic a GPU owner loops over (x and dy: 2 × 64 KiB), so that the second read
// finds it in the cache while all the owners in flight share it; a CPU device runs an owner on
// one thread, whose cache holds it alone.
constexpr std::uint64_t kGpuLoopedElements = 16384;

}  // namespace

Backward::Backward(Normalizer& normalizer)
    : n_(&normalizer),
      kernels_(normalizer.context(), normalizer.macros(), 8, static_cast<std::uint32_t>(sizeof(Push))) {}

// The passes of one backward run: per slab the statistics reduction, the merge, per apply slab
// ∂L/∂x; then the γ/β reduction per slab of the γ/β layout and its merge.
struct Backward::Passes {
    Backward& b;
    Normalizer& n;
    const Normalizer::Prepared& p;
    // Reductions: owners are subgroups where the device allows (as the forward's plan), else
    // workgroups; the γ/β pass of layer/rms walks columns (one invocation per γ/β index and chunk of rows).
    std::uint32_t wg = 0, chunk_len = 0, owners_per_wg = 1, param_chunk_len = 0;
    std::uint32_t apply_wg = kApplyWg;  // fewer lanes for small statistics (one workgroup per statistic chunk)
    std::uint32_t looped_wg = 0;        // grad_looped.comp's lanes per owner
    bool looped_sg = false;             // grad_looped.comp's owners are subgroups
    bool subgroup_owners = false, columns = false;
    bool vec4 = false, param_vec4 = false;  // 16-byte loads: the forward's layout, the γ/β layout
    // Every reduce chunk has one γ (one γ per statistic: batch, instance, group G = C; or GroupNorm's
    // chunks inside one channel): ∂L/∂γ and ∂L/∂β are added up from the statistics pass's
    // partials (grad_merge.comp FROM_STATS), no γ/β pass over x and dy.
    bool params_from_stats = false;
    std::uint32_t chunks_per_gamma = 0;  // FROM_STATS: consecutive chunks of one γ
    // The forward fused (one window): grad_fused.comp reads x and dy once and writes ∂L/∂x; with
    // rows (layer/rms) each owner adds up ∂L/∂γ, ∂L/∂β partials over rows_per statistics.
    bool fused = false, rows = false, one_gamma = false;
    // Split statistics in one window with few enough elements per owner, and owners enough to fill
    // the device: grad_looped.comp, one owner per statistic (or per block of rows_per), in place of
    // reduce + merge + apply (plan_looped).
    // GroupNorm with a γ per channel (1 < C/G): the looped kernel's first loop sums channel by channel
    // (RUN_GAMMA), gamma_runs = C/G partials per statistic for the γ/β merge.
    bool looped = false, run_gamma = false;
    std::uint32_t rows_per = 1, row_blocks = 0, gamma_runs = 1;
    SlabPlan reduce_slabs, apply_slabs, param_slabs;
    ParamLayout pl;
    Push param_push{};
    vk::DeviceSize stat_partial_bytes = 0, stat_mean_bytes = 0, param_partial_bytes = 0, param_sum_bytes = 0;

    Passes(Backward& bw, const Normalizer::Prepared& prep) : b(bw), n(*bw.n_), p(prep) {
        const PlanDevice lim = n.plan_device();
        const std::uint32_t wg_max = lim.wg_max, sg = lim.subgroup;
        subgroup_owners = lim.subgroup_owners;
        wg = subgroup_owners ? std::max(std::min(64u, wg_max), sg) : wg_max;
        owners_per_wg = subgroup_owners ? wg / sg : 1;
        const std::uint32_t lanes = subgroup_owners ? sg : wg;
        vec4 = p.plan.vec4;
        const std::uint32_t pack = vec4 ? 4u : 1u;
        chunk_len = lanes * kReduceVpt * pack;
        columns = p.spec.method == Method::Layer || p.spec.method == Method::Rms;
        const bool eval = p.plan.from_running;
        const std::int64_t max_el = n.max_binding_elements(), align = n.binding_alignment();
        fused = !eval && p.plan.fused && p.slabs.slabs.size() == 1;
        plan_chunk_gamma(max_el, align);
        pl = param_layout(p.layout, p.spec);
        const StatLayout& q = pl.layout;
        param_vec4 = !columns && q.segment_len % 4 == 0 && q.stat_stride % 4 == 0 && q.segment_stride % 4 == 0;
        param_chunk_len = columns ? kColumnRows : lanes * kReduceVpt * (param_vec4 ? 4u : 1u);
        const auto count = static_cast<std::uint64_t>(p.layout.count());
        while (apply_wg > 32 && std::uint64_t{apply_wg / 2} * kApplyVpt * pack >= count) apply_wg /= 2;
        apply_wg = std::min(apply_wg, wg_max);
        apply_slabs = plan_slabs(p.layout, max_el, align, apply_chunk_len());
        param_slabs = plan_slabs(pl.layout, max_el, align, param_chunk_len);
        const auto S = static_cast<vk::DeviceSize>(p.layout.stat_count);
        const auto P = static_cast<vk::DeviceSize>(p.layout.param_count);
        stat_partial_bytes = S * 16 * std::max<std::uint32_t>(1, reduce_slabs.chunks_total);
        stat_mean_bytes = S * 16;
        // Layer/rms in one window: ∂L/∂γ, ∂L/∂β partials from the kernel that writes ∂L/∂x.
        const bool one_window = reduce_slabs.slabs.size() == 1 && apply_slabs.slabs.size() == 1;
        if (columns && (fused || one_window)) plan_rows();
        if (!eval && one_window) plan_looped(lim);
        stat_partial_bytes = std::max<vk::DeviceSize>(stat_partial_bytes, S * 16 * gamma_runs);
        param_partial_bytes = P * 16 * std::max<std::uint32_t>({1, param_slabs.chunks_total, row_blocks});
        param_sum_bytes = P * 16;
        const vk::DeviceSize range = n.context().limits().maxStorageBufferRange;
        for (vk::DeviceSize need : {stat_partial_bytes, param_partial_bytes})
            if (need > range)
                throw InputError("the backward's partial sums need " + std::to_string(need) +
                                 " bytes, more than one binding of this device holds (" + std::to_string(range) +
                                 " bytes, maxStorageBufferRange)");
        param_push = layout_push(pl.layout, p.spec.effective_eps());
        param_push.gstat_seg_mul = pl.seg_mul;
        param_push.gstat_p_div = pl.p_div;
    }

    // GroupNorm: chunks no longer than one channel, so that each has one γ where they divide it.
    void plan_chunk_gamma(std::int64_t max_el, std::int64_t align) {
        const StatLayout& L = p.layout;
        const bool one_per_stat = L.param_elem_div == 0 || (L.param_stat_mul == 1 && L.param_elem_div >= L.count());
        if (L.param_elem_div > 1 && L.param_elem_div < chunk_len) chunk_len = u32(L.param_elem_div);
        reduce_slabs = plan_slabs(L, max_el, align, chunk_len);
        if (p.plan.from_running || L.param_elem_div == 1) return;
        one_gamma = one_per_stat;
        if (fused) {
            params_from_stats = one_per_stat;
            chunks_per_gamma = 1;
        } else if (L.param_elem_div == 0) {
            params_from_stats = true;
            chunks_per_gamma = reduce_slabs.chunks_total;
        } else if (reduce_slabs.ranges == 1 && (one_per_stat || L.param_elem_div % chunk_len == 0)) {
            params_from_stats = true;
            chunks_per_gamma = one_per_stat ? reduce_slabs.chunks_total : u32(L.param_elem_div / chunk_len);
        }
    }
    // Layer/rms: each owner adds up ∂L/∂γ, ∂L/∂β over blocks of ~kRowsPer statistics, so that the
    // per-element partials stay small (≤ 1/8 of x's bytes where S allows, ≤ 16 MiB, ≤ 1024 per element).
    void plan_rows() {
        rows = true;
        const auto S = static_cast<std::uint64_t>(p.layout.stat_count);
        const auto P = static_cast<std::uint64_t>(p.layout.param_count);
        const std::uint64_t cap =
            std::max<std::uint64_t>(1, std::min<std::uint64_t>(1024, (std::uint64_t{1} << 20) / P));
        const std::uint64_t blocks = std::clamp<std::uint64_t>((S + kRowsPer - 1) / kRowsPer, 1, cap);
        rows_per = u32((S + blocks - 1) / blocks);
        row_blocks = u32((S + rows_per - 1) / rows_per);
    }

    // The looped kernel where the forward splits a statistic and the looped kernel gives ∂L/∂γ,
    // ∂L/∂β too (rows, one γ per statistic, or GroupNorm's γ per channel), the device has owners
    // enough and (a GPU) the statistic is short enough to stay in its cache between the two loops.
    // NORMLAB_GRAD_LOOPED=0 or 1 overrides the choice (tests, benches); 1 also where the forward
    // fused, so that the small golden fixtures run through the looped kernel too.
    void plan_looped(const PlanDevice& lim) {
        const StatLayout& L = p.layout;
        const bool channels = !rows && !one_gamma && L.param_elem_div > 1 && L.count() % L.param_elem_div == 0 &&
                              (!vec4 || L.param_elem_div % 4 == 0);
        if (!(rows ? rows_per <= kLoopedMaxRows : one_gamma || channels)) return;
        const auto owners = static_cast<std::uint64_t>((L.stat_count + rows_per - 1) / rows_per);
        const bool cpu = lim.cpu;  // a CPU device (lavapipe, SwiftShader)
        looped =
            !fused && (cpu ? owners >= kCpuLoopedOwners
                           : owners >= kGpuLoopedOwners && static_cast<std::uint64_t>(L.count()) <= kGpuLoopedElements);
        if (lim.backward != ForcedPath::Auto) looped = lim.backward == ForcedPath::Looped;
        if (!looped) return;
        fused = false;
        if (one_gamma || channels) {  // the kernel writes PARTIALS[s·runs + r] = (Σdy, Σdy·x̂, n), one γ each
            params_from_stats = true;
            chunks_per_gamma = 1;
            run_gamma = channels;
            gamma_runs = channels ? u32(L.count() / L.param_elem_div) : 1u;
        }
        // Lanes: one subgroup where the device allows; on a GPU more where that lets a statistic fit
        // one tile of the second loop (kLoopedVpt packs per lane), so that its loops run back to
        // back (a CPU device's barriers cost more than that saves: 2–2.5× the time of layer [H,W]).
        const std::uint64_t pack = vec4 ? 4 : 1,
                            packs = (static_cast<std::uint64_t>(p.layout.count()) + pack - 1) / pack;
        const std::uint32_t cap = std::min(lim.wg_max, kApplyWg);
        looped_wg = lim.subgroup_owners ? lim.subgroup : cap;
        if (!cpu && packs > std::uint64_t{looped_wg} * kLoopedVpt && packs <= std::uint64_t{cap} * kLoopedVpt)
            looped_wg = std::max(looped_wg, pow2_ceil((packs + kLoopedVpt - 1) / kLoopedVpt));
        looped_sg = lim.subgroup_owners && looped_wg == lim.subgroup;
    }
    // The looped kernel (one owner per workgroup: a subgroup, else up to 256 lanes).
    void looped_pass(vk::CommandBuffer cmd) {
        auto& k = b.kernels_.get("grad_looped.comp",
                                 constants({looped_wg, kLoopedVpt, p.rms ? 1u : 0u, looped_sg ? 1u : 0u, vec4 ? 1u : 0u,
                                            rows ? 1u : 0u, one_gamma ? 1u : 0u, rows_per, run_gamma ? 1u : 0u},
                                           false));
        const Slab& slab = reduce_slabs.slabs.front();
        bind(k, slab, rows ? Sums::Rows : Sums::FusedStats);
        Push push = p.push;
        set_slab(push, slab, chunk_len, gamma_runs);  // chunks_total: the partials per statistic
        push.gstat_seg_mul = rows_per;
        push.gstat_p_div = row_blocks;
        DispatchGrid g = group_grid((static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) + rows_per - 1) / rows_per,
                                    n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }

    std::uint32_t apply_chunk_len() const { return apply_wg * kApplyVpt * (vec4 ? 4u : 1u); }

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
    void bind(ComputeKernel& k, const Slab& slab, Sums sums) const {
        const vk::DeviceSize off = static_cast<vk::DeviceSize>(slab.flat_base) * 4,
                             len = static_cast<vk::DeviceSize>(slab.extent) * 4;
        auto whole = [](const GpuBuffer& buf, vk::DeviceSize bytes) {
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
        const KernelPlan& plan = p.plan;
        auto& k = b.kernels_.get(
            "grad_fused.comp", constants({plan.stats_wg, plan.stats_vpt, p.rms ? 1u : 0u, plan.subgroup_stats ? 1u : 0u,
                                          plan.vec4 ? 1u : 0u, rows ? 1u : 0u, one_gamma ? 1u : 0u},
                                         false));
        const Slab& slab = p.slabs.slabs.front();
        bind(k, slab, rows ? Sums::Rows : Sums::FusedStats);
        Push push = p.push;
        set_slab(push, slab, plan.chunk_len, 1);
        push.gstat_seg_mul = rows_per;
        push.gstat_p_div = row_blocks;
        const std::uint64_t owners =
            (static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) + rows_per - 1) / rows_per;
        DispatchGrid g = group_grid((owners + plan.stats_per_wg - 1) / plan.stats_per_wg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    void reduce(vk::CommandBuffer cmd, const Slab& slab, bool param_pass) {
        const bool cols = param_pass && columns;
        const std::uint32_t k_wg = cols ? 64u : wg, per_wg = cols ? 64u : owners_per_wg;
        auto& k = b.kernels_.get("grad_reduce.comp", constants({k_wg, kReduceVpt, p.rms ? 1u : 0u, param_pass ? 1u : 0u,
                                                                !cols && subgroup_owners ? 1u : 0u, cols ? 1u : 0u,
                                                                (param_pass ? param_vec4 : vec4) ? 1u : 0u,
                                                                !param_pass && params_from_stats ? 1u : 0u},
                                                               param_pass));
        bind(k, slab, param_pass ? Sums::Params : Sums::Stats);
        Push push = param_pass ? param_push : p.push;
        set_slab(push, slab, param_pass ? param_chunk_len : chunk_len,
                 param_pass ? param_slabs.chunks_total : reduce_slabs.chunks_total);
        const std::uint64_t owners = static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * slab.chunks;
        DispatchGrid g = group_grid((owners + per_wg - 1) / per_wg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    // chunks: partials per group (0: the pass's own plan; the fused rows' blocks otherwise).
    void merge(vk::CommandBuffer cmd, bool param_pass, std::uint32_t chunks = 0) {
        const SlabPlan& plan = param_pass ? param_slabs : reduce_slabs;
        const std::int64_t S = param_pass ? pl.layout.stat_count : p.layout.stat_count;
        auto& k = b.kernels_.get(
            "grad_merge.comp",
            constants({param_pass ? 0u : 1u, 0u, !param_pass && params_from_stats ? 1u : 0u}, param_pass));
        bind(k, plan.slabs.front(), param_pass ? Sums::Params : Sums::Stats);
        Push push = param_pass ? param_push : p.push;
        set_slab(push, Slab{0, S, 0, 0, 0, 0, 0, 0}, param_pass ? param_chunk_len : chunk_len,
                 chunks ? chunks : plan.chunks_total);
        push.flat_base = u32(plan.slabs.front().flat_base);
        DispatchGrid g = group_grid((static_cast<std::uint64_t>(S) + kMergeWg - 1) / kMergeWg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    // ∂L/∂β and ∂L/∂γ of each γ/β index p from the statistics p + k·C, k < S / C.
    void merge_params_from_stats(vk::CommandBuffer cmd) {
        const std::int64_t P = p.layout.param_count;
        auto& k = b.kernels_.get("grad_merge.comp", constants({0u, 1u, 1u}, false));
        bind(k, reduce_slabs.slabs.front(), Sums::StatsToParams);
        Push push = p.push;
        set_slab(push, Slab{0, P, 0, 0, 0, 0, 0, 0}, chunk_len,
                 looped  ? gamma_runs
                 : fused ? 1u
                         : reduce_slabs.chunks_total);
        push.e_lo = chunks_per_gamma;
        push.e_hi = u32(p.layout.stat_count / p.layout.param_stat_mod);  // statistics per γ/β group index
        DispatchGrid g = group_grid((static_cast<std::uint64_t>(P) + kMergeWg - 1) / kMergeWg, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    void apply(vk::CommandBuffer cmd, const Slab& slab) {
        auto& k =
            b.kernels_.get("grad_apply.comp", constants({apply_wg, kApplyVpt, p.rms ? 1u : 0u,
                                                         p.plan.from_running ? 1u : 0u, vec4 ? 1u : 0u, rows ? 1u : 0u},
                                                        false));
        bind(k, slab, rows ? Sums::Rows : Sums::Stats);
        Push push = p.push;
        set_slab(push, slab, apply_chunk_len(), apply_slabs.chunks_total);
        push.gstat_seg_mul = rows_per;
        push.gstat_p_div = row_blocks;
        const std::uint64_t blocks =
            (static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) + rows_per - 1) / rows_per;
        DispatchGrid g = group_grid(blocks * slab.chunks, n.context());
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
};

void Backward::check(const Normalizer::Prepared& p, const Tensor& dy) const {
    const Shape4& shape = p.layout.shape;
    check_grad_shape(shape, dy.shape.dims());
    if (dy.data.size() != static_cast<std::size_t>(shape.numel()))
        throw InputError("dy has " + std::to_string(dy.data.size()) + " values, its shape needs " +
                         std::to_string(shape.numel()));
    const std::uint64_t heap = n_->context().device_memory_bytes();
    if (4 * p.bytes > heap)
        throw InputError("the backward of " + shape.str() + " needs 4 x " + std::to_string(p.bytes) +
                         " bytes (x, y, dy, dx), more than the device's " + std::to_string(heap) + " bytes of memory");
}

void Backward::upload(const Passes& passes, const Tensor& dy) {
    const VulkanContext& ctx = n_->context();
    ensure_compute_buffer(ctx, dy_, passes.p.bytes);
    ensure_compute_buffer(ctx, dx_, passes.p.bytes);
    ensure_compute_buffer(ctx, stat_partials_, passes.stat_partial_bytes);
    ensure_compute_buffer(ctx, stat_means_, passes.stat_mean_bytes);
    ensure_compute_buffer(ctx, param_partials_, passes.param_partial_bytes);
    ensure_compute_buffer(ctx, param_sums_, passes.param_sum_bytes);
    n_->staging().upload({{&dy_, 0, dy.data.data(), passes.p.bytes}});
}

double Backward::dispatch(Passes& passes) {
    const bool eval = passes.p.plan.from_running;
    CommandRecorder& recorder = n_->recorder();
    double gpu_ms = 0.0;
    auto submit = [&](const std::function<void(vk::CommandBuffer)>& dispatches) {
        vk::CommandBuffer cmd = recorder.begin();
        recorder.start_timer();
        dispatches(cmd);
        recorder.stop_timer();
        // Makes the shaders' writes of dx and the γ/β sums visible to the host's reads.
        memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
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
        for (const Slab& s : passes.reduce_slabs.slabs)
            submit([&](vk::CommandBuffer c) { passes.reduce(c, s, false); });
        submit([&](vk::CommandBuffer c) { passes.merge(c, false); });
    }
    for (const Slab& s : passes.apply_slabs.slabs) submit([&](vk::CommandBuffer c) { passes.apply(c, s); });
    if (from_stats) {
        submit([&](vk::CommandBuffer c) { passes.merge_params_from_stats(c); });
        return gpu_ms;
    }
    for (const Slab& s : passes.param_slabs.slabs) submit([&](vk::CommandBuffer c) { passes.reduce(c, s, true); });
    submit([&](vk::CommandBuffer c) { passes.merge(c, true); });
    return gpu_ms;
}

void Backward::read_back(const Passes& passes, GradResult& r, bool read_dx) {
    const Normalizer::Prepared& p = passes.p;
    const bool eval = p.plan.from_running;
    const auto P = static_cast<std::size_t>(p.layout.param_count);
    std::vector<float> sums(P * 4);
    const auto S = static_cast<std::size_t>(p.layout.stat_count);
    std::vector<float> means(eval ? 0 : S * 4);
    std::vector<DeviceToHost> copies{{&param_sums_, 0, sums.data(), passes.param_sum_bytes}};
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
GradResult Backward::run(const Tensor& dy, bool read_dx) {
    const Normalizer::Prepared* last = n_->last_run();
    if (!last) throw InputError("the backward pass needs a forward run first");
    check(*last, dy);
    Passes passes(*this, *last);
    GradResult r;
    auto t = std::chrono::steady_clock::now();
    upload(passes, dy);
    r.upload_ms = ms_since(t);
    t = std::chrono::steady_clock::now();
    r.gpu_ms = dispatch(passes);
    r.dispatch_ms = ms_since(t);
    t = std::chrono::steady_clock::now();
    read_back(passes, r, read_dx);
    r.readback_ms = ms_since(t);
    return r;
}

GradResult run_backward(Normalizer& n, Backward& b, const Tensor& x, const Tensor& dy, const NormSpec& spec,
                        const NormParams& params) {
    check_grad_shape(x.shape, dy.shape.dims());
    RunOptions o;
    o.read_y = false;
    n.run(x, spec, params, o);
    return b.run(dy);
}

}  // namespace normlab
