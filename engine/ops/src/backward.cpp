#include "normlab/backward.hpp"

#include "normalizer_detail.hpp"
#include "normlab/error.hpp"

#include <chrono>
#include <functional>

namespace normlab {
namespace {

constexpr std::uint32_t kReduceVpt = 32, kApplyWg = 256, kApplyVpt = 4, kMergeWg = 64, kColumnRows = 64;

// The layout whose groups are the γ/β indices, for ∂L/∂γ and ∂L/∂β: per channel, N runs of H·W
// (batch, instance, group); per element of normalized_shape, one element in each leading row
// (layer, rms). Element j·segment_len + k of group p belongs to statistic j·seg_mul + p / p_div.
struct ParamLayout {
    StatLayout layout;
    std::uint32_t seg_mul = 0, p_div = 0;
};
ParamLayout param_layout(const StatLayout& L, const NormSpec& spec) {
    ParamLayout P;
    P.layout = L;
    StatLayout& l = P.layout;
    l.stat_count = L.param_count;
    l.stat_stride = L.param_stride;
    const Shape4& s = L.shape;
    if (spec.method == Method::Layer || spec.method == Method::Rms) {
        l.segments = L.stat_count;
        l.segment_len = 1;
        l.segment_stride = L.count();
        P.seg_mul = 1;
        P.p_div = 0;
    } else if (spec.method == Method::Instance && s.rank == 2) {  // γ per row of an unbatched (C, L): its own stat
        l.segments = 1;
        l.segment_len = s.c;
        l.segment_stride = s.c;
        P.seg_mul = 0;
        P.p_div = 1;
    } else {
        l.segments = s.n;
        l.segment_len = s.hw();
        l.segment_stride = s.chw();
        P.seg_mul = spec.method == Method::Batch ? 0u : spec.method == Method::Instance ? u32(s.c) : u32(spec.groups);
        P.p_div = spec.method == Method::Group ? u32(s.c / spec.groups) : 1u;
    }
    return P;
}

}  // namespace

ComputeKernel& Backward::kernel(const std::string& shader, const std::vector<std::uint32_t>& spec) {
    auto key = std::make_pair(shader, spec);
    auto it = kernels_.find(key);
    if (it != kernels_.end()) return *it->second;
    auto k = std::make_unique<ComputeKernel>(*n_->ctx_, shader, n_->macros_, spec, 8,
                                             static_cast<std::uint32_t>(sizeof(Push)));
    return *kernels_.emplace(key, std::move(k)).first->second;
}

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
    bool subgroup_owners = false, columns = false;
    SlabPlan reduce_slabs, apply_slabs, param_slabs;
    ParamLayout pl;
    Push param_push{};
    vk::DeviceSize stat_partial_bytes = 0, stat_mean_bytes = 0, param_partial_bytes = 0, param_sum_bytes = 0;

    Passes(Backward& bw, const Normalizer::Prepared& prep) : b(bw), n(*bw.n_), p(prep) {
        const auto& l = n.ctx_->limits();
        std::uint32_t wg_max = 1;
        while (wg_max * 2 <= std::min({256u, l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupInvocations}))
            wg_max *= 2;
        const std::uint32_t sg = n.ctx_->subgroup_size();
        subgroup_owners =
            n.subgroup_owners_ && n.ctx_->subgroup_arithmetic() && n.ctx_->fixed_subgroup_size() && sg <= wg_max;
        wg = subgroup_owners ? std::max(std::min(64u, wg_max), sg) : wg_max;
        owners_per_wg = subgroup_owners ? wg / sg : 1;
        chunk_len = (subgroup_owners ? sg : wg) * kReduceVpt;
        columns = p.spec.method == Method::Layer || p.spec.method == Method::Rms;
        param_chunk_len = columns ? kColumnRows : chunk_len;
        const std::int64_t max_el = n.max_binding_elements(), align = n.binding_alignment();
        reduce_slabs = plan_slabs(p.layout, max_el, align, chunk_len);
        const auto count = static_cast<std::uint64_t>(p.layout.count());
        while (apply_wg > 32 && std::uint64_t{apply_wg / 2} * kApplyVpt >= count) apply_wg /= 2;
        apply_wg = std::min(apply_wg, wg_max);
        apply_slabs = plan_slabs(p.layout, max_el, align, apply_wg * kApplyVpt);
        pl = param_layout(p.layout, p.spec);
        param_slabs = plan_slabs(pl.layout, max_el, align, param_chunk_len);
        const auto S = static_cast<vk::DeviceSize>(p.layout.stat_count);
        const auto P = static_cast<vk::DeviceSize>(p.layout.param_count);
        stat_partial_bytes = S * 16 * std::max<std::uint32_t>(1, reduce_slabs.chunks_total);
        stat_mean_bytes = S * 16;
        param_partial_bytes = P * 16 * std::max<std::uint32_t>(1, param_slabs.chunks_total);
        param_sum_bytes = P * 16;
        const vk::DeviceSize range = l.maxStorageBufferRange;
        for (vk::DeviceSize need : {stat_partial_bytes, param_partial_bytes})
            if (need > range)
                throw InputError("the backward's partial sums need " + std::to_string(need) +
                                 " bytes, more than one binding of this device holds (" + std::to_string(range) +
                                 " bytes, maxStorageBufferRange)");
        param_push = p.push;
        const StatLayout& q = pl.layout;
        param_push.segment_len = u32(q.segment_len);
        param_push.segment_stride = u32(q.segment_stride);
        param_push.stat_stride = u32(q.stat_stride);
        const Magic seg = magic(static_cast<std::uint64_t>(q.segment_len));
        param_push.seg_magic = seg.m;
        param_push.seg_s1 = seg.s1;
        param_push.seg_s2 = seg.s2;
        param_push.gstat_seg_mul = pl.seg_mul;
        param_push.gstat_p_div = pl.p_div;
    }

    // Specialization constants: the kernel's own (ids 0–3), then the layout's (ids 10–13).
    std::vector<std::uint32_t> constants(std::vector<std::uint32_t> own, bool param_pass) const {
        own.resize(10, 0u);
        if (param_pass)  // γ/β are not read; only the segmentation matters
            own.insert(own.end(), {pl.layout.segments > 1 ? 1u : 0u, 0u, 0u, 0u});
        else
            own.insert(own.end(), p.layout_constants.begin(), p.layout_constants.end());
        return own;
    }
    void bind(ComputeKernel& k, const Slab& slab, bool param_pass) const {
        const vk::DeviceSize off = static_cast<vk::DeviceSize>(slab.flat_base) * 4,
                             len = static_cast<vk::DeviceSize>(slab.extent) * 4;
        auto whole = [](const GpuBuffer& buf, vk::DeviceSize bytes) {
            return vk::DescriptorBufferInfo{buf.handle(), 0, std::max<vk::DeviceSize>(bytes, 16)};
        };
        k.bind_ranges(
            {{n.x_.handle(), off, len},
             {b.dx_.handle(), off, len},
             whole(n.w_, p.param_bytes),
             whole(n.b_, p.param_bytes),
             whole(n.stats_, p.stat_bytes),
             param_pass ? whole(b.param_partials_, param_partial_bytes) : whole(b.stat_partials_, stat_partial_bytes),
             {b.dy_.handle(), off, len},
             param_pass ? whole(b.param_sums_, param_sum_bytes) : whole(b.stat_means_, stat_mean_bytes)});
    }
    void reduce(vk::CommandBuffer cmd, const Slab& slab, bool param_pass) {
        const bool cols = param_pass && columns;
        const std::uint32_t k_wg = cols ? 64u : wg, per_wg = cols ? 64u : owners_per_wg;
        auto& k = b.kernel("grad_reduce.comp", constants({k_wg, kReduceVpt, p.rms ? 1u : 0u, param_pass ? 1u : 0u,
                                                          !cols && subgroup_owners ? 1u : 0u, cols ? 1u : 0u},
                                                         param_pass));
        bind(k, slab, param_pass);
        Push push = param_pass ? param_push : p.push;
        set_slab(push, slab, param_pass ? param_chunk_len : chunk_len,
                 param_pass ? param_slabs.chunks_total : reduce_slabs.chunks_total);
        const std::uint64_t owners = static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * slab.chunks;
        GroupGrid g = group_grid((owners + per_wg - 1) / per_wg, *n.ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    void merge(vk::CommandBuffer cmd, bool param_pass) {
        const SlabPlan& plan = param_pass ? param_slabs : reduce_slabs;
        const std::int64_t S = param_pass ? pl.layout.stat_count : p.layout.stat_count;
        auto& k = b.kernel("grad_merge.comp", constants({param_pass ? 0u : 1u}, param_pass));
        bind(k, plan.slabs.front(), param_pass);
        Push push = param_pass ? param_push : p.push;
        set_slab(push, Slab{0, S, 0, 0, 0, 0, 0, 0}, param_pass ? param_chunk_len : chunk_len, plan.chunks_total);
        push.flat_base = u32(plan.slabs.front().flat_base);
        GroupGrid g = group_grid((static_cast<std::uint64_t>(S) + kMergeWg - 1) / kMergeWg, *n.ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    void apply(vk::CommandBuffer cmd, const Slab& slab) {
        auto& k =
            b.kernel("grad_apply.comp",
                     constants({apply_wg, kApplyVpt, p.rms ? 1u : 0u, p.plan.stats_from_running ? 1u : 0u}, false));
        bind(k, slab, false);
        Push push = p.push;
        set_slab(push, slab, apply_wg * kApplyVpt, apply_slabs.chunks_total);
        GroupGrid g = group_grid(static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * slab.chunks, *n.ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
};

GradResult Backward::run(const Tensor& dy, bool read_dx) {
    if (!n_->last_) throw InputError("the backward pass needs a forward run first");
    const Normalizer::Prepared& p = *n_->last_;
    const Shape4& shape = p.layout.shape;
    check_grad_shape(shape, dy.shape.dims());
    if (dy.data.size() != static_cast<std::size_t>(shape.numel()))
        throw InputError("dy has " + std::to_string(dy.data.size()) + " values, its shape needs " +
                         std::to_string(shape.numel()));
    const std::uint64_t heap = n_->ctx_->device_memory_bytes();
    if (4 * p.bytes > heap)
        throw InputError("the backward of " + shape.str() + " needs 4 x " + std::to_string(p.bytes) +
                         " bytes (x, y, dy, dx), more than the device's " + std::to_string(heap) + " bytes of memory");
    Passes passes(*this, p);
    const bool eval = p.plan.stats_from_running;
    GradResult r;

    auto t = std::chrono::steady_clock::now();
    n_->ensure(dy_, p.bytes);
    n_->ensure(dx_, p.bytes);
    n_->ensure(stat_partials_, passes.stat_partial_bytes);
    n_->ensure(stat_means_, passes.stat_mean_bytes);
    n_->ensure(param_partials_, passes.param_partial_bytes);
    n_->ensure(param_sums_, passes.param_sum_bytes);
    n_->staging_.upload({{&dy_, 0, dy.data.data(), p.bytes}});
    r.upload_ms = ms_since(t);

    t = std::chrono::steady_clock::now();
    auto submit = [&](const std::function<void(vk::CommandBuffer)>& dispatches) {
        vk::CommandBuffer cmd = n_->recorder_.begin();
        n_->recorder_.start_timer();
        dispatches(cmd);
        n_->recorder_.stop_timer();
        // Makes the shaders' writes of dx and the γ/β sums visible to the host's reads.
        memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                       vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
        r.gpu_ms += n_->recorder_.submit();
    };
    const bool one_window = passes.reduce_slabs.slabs.size() == 1 && passes.apply_slabs.slabs.size() == 1 &&
                            passes.param_slabs.slabs.size() == 1;
    if (one_window) {
        submit([&](vk::CommandBuffer cmd) {
            if (!eval) {
                passes.reduce(cmd, passes.reduce_slabs.slabs.front(), false);
                shader_to_shader(cmd);
                passes.merge(cmd, false);
                shader_to_shader(cmd);
            }
            passes.apply(cmd, passes.apply_slabs.slabs.front());
            // The γ/β pass reads only x, dy and the statistics: no barrier against ∂L/∂x's writes.
            passes.reduce(cmd, passes.param_slabs.slabs.front(), true);
            shader_to_shader(cmd);
            passes.merge(cmd, true);
        });
    } else {
        // One submit per slab: each binds its own window of x, dy and dx.
        if (!eval) {
            for (const Slab& s : passes.reduce_slabs.slabs)
                submit([&](vk::CommandBuffer c) { passes.reduce(c, s, false); });
            submit([&](vk::CommandBuffer c) { passes.merge(c, false); });
        }
        for (const Slab& s : passes.apply_slabs.slabs) submit([&](vk::CommandBuffer c) { passes.apply(c, s); });
        for (const Slab& s : passes.param_slabs.slabs) submit([&](vk::CommandBuffer c) { passes.reduce(c, s, true); });
        submit([&](vk::CommandBuffer c) { passes.merge(c, true); });
    }
    r.dispatch_ms = ms_since(t);

    t = std::chrono::steady_clock::now();
    const auto P = static_cast<std::size_t>(p.layout.param_count);
    std::vector<float> sums(P * 4);
    const auto S = static_cast<std::size_t>(p.layout.stat_count);
    std::vector<float> means(eval ? 0 : S * 4);
    std::vector<DeviceToHost> copies{{&param_sums_, 0, sums.data(), passes.param_sum_bytes}};
    if (!eval) copies.push_back({&stat_means_, 0, means.data(), passes.stat_mean_bytes});
    r.dx.shape = shape;
    if (read_dx && dx_.mappable()) {
        const auto* d = static_cast<const float*>(dx_.data());
        r.dx.data.assign(d, d + p.bytes / 4);
    } else if (read_dx) {
        r.dx.data.resize(static_cast<std::size_t>(p.bytes / 4));
        copies.push_back({&dx_, 0, r.dx.data.data(), p.bytes});
    }
    n_->staging_.download(copies);
    if (p.spec.has_bias())
        for (std::size_t i = 0; i < P; ++i) r.dbias.push_back(sums[i * 4]);
    if (p.spec.has_weight())
        for (std::size_t i = 0; i < P; ++i) r.dweight.push_back(sums[i * 4 + 1]);
    for (std::size_t i = 0; i < means.size(); i += 4) {
        r.mean_g.push_back(means[i]);
        r.mean_gxhat.push_back(means[i + 1]);
    }
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
