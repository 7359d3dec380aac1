#include "normlab/normalizer.hpp"

#include "normlab/error.hpp"
#include "normlab/slab_plan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <cstdlib>
#include <cstring>

namespace normlab {
namespace {

// Mirrors `Push` in shaders/norm_common.glsl.
struct Push {
    std::uint32_t stat_lo, slab_stats, segment_len, segment_stride, stat_stride;
    std::uint32_t e_lo, e_hi, flat_base, chunks, chunk_len, chunk_base, chunks_total, groups_x;
    std::uint32_t seg_magic, seg_s1, seg_s2;
    std::uint32_t pstat_mod, pstat_mul;
    std::uint32_t pelem_div, pe_magic, pe_s1, pe_s2;
    float eps;
};
static_assert(sizeof(Push) == 92);

// Magic numbers for dividing any 32-bit n by d: q = (hi + ((n − hi) >> s1)) >> s2 with
// hi = (m·n) >> 32 (Granlund & Montgomery 1994, Figure 4.1).
struct Magic {
    std::uint32_t m = 1, s1 = 0, s2 = 0;
};
Magic magic(std::uint64_t d) {
    if (d == 0) return {};
    std::uint32_t l = 0;
    while ((std::uint64_t{1} << l) < d) ++l;
    Magic k;
    k.m = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * ((std::uint64_t{1} << l) - d)) / d + 1);
    k.s1 = l ? 1 : 0;
    k.s2 = l ? l - 1 : 0;
    return k;
}

constexpr std::uint32_t kApplyWg = 256, kApplyVpt = 4, kMergeWg = 64;

std::uint32_t pow2_ceil(std::uint64_t v) {
    std::uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}
std::uint32_t pow2_floor(std::uint32_t v) {
    std::uint32_t p = 1;
    while (p * 2 <= v) p <<= 1;
    return p;
}
std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }

// A full memory barrier between two stages: `src` writes become visible to `dst` accesses.
void barrier(const vk::CommandBuffer& cmd, vk::PipelineStageFlags src, vk::AccessFlags src_access,
             vk::PipelineStageFlags dst, vk::AccessFlags dst_access) {
    vk::MemoryBarrier mb(src_access, dst_access);
    cmd.pipelineBarrier(src, dst, {}, mb, {}, {});
}

}  // namespace

Normalizer::Normalizer(const VulkanContext& ctx) : ctx_(&ctx) {
    // NORMLAB_KERNELS=workgroup keeps every reduction workgroup-wide, the plan a GPU with a
    // variable subgroup size gets; the tests run it on lavapipe too, so every path is covered.
    if (const char* k = std::getenv("NORMLAB_KERNELS"); k && std::string(k) == "workgroup") subgroup_owners_ = false;
    if (ctx.subgroup_arithmetic()) macros_.emplace_back("NL_SUBGROUP_ARITH", "1");
    pool_ = vk::raii::CommandPool(ctx.device(), vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                                                         ctx.queue_family()));
    vk::raii::CommandBuffers bufs(ctx.device(), vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 1));
    cmd_ = std::move(bufs.front());
    if (ctx.timestamps())
        queries_ = vk::raii::QueryPool(ctx.device(), vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2));
}


void Normalizer::check_capacity(const Shape4& shape) const {
    shape.validate();
    const std::uint64_t bytes = static_cast<std::uint64_t>(shape.numel()) * 4;
    // x and y each need one allocation; lavapipe's memory is the machine's RAM.
    const std::uint64_t max_alloc = ctx_->max_allocation_bytes();
    if (bytes > max_alloc)
        throw InputError("the tensor " + shape.str() + " needs " + std::to_string(bytes) + " bytes per buffer, more than the device's " +
                         "maxMemoryAllocationSize of " + std::to_string(max_alloc) + " bytes");
    const std::uint64_t heap = ctx_->device_memory_bytes();
    if (2 * bytes > heap)
        throw InputError("the tensor " + shape.str() + " needs 2 x " + std::to_string(bytes) + " bytes (x and y), more than the device's " +
                         std::to_string(heap) + " bytes of memory");
}

std::int64_t Normalizer::max_binding_elements() const {
    std::uint64_t range = ctx_->limits().maxStorageBufferRange;
    if (const char* e = std::getenv("NORMLAB_MAX_BINDING_BYTES"); e && *e)  // tests: force slabs on small tensors
        range = std::min<std::uint64_t>(range, std::strtoull(e, nullptr, 10));
    return static_cast<std::int64_t>(range / 4);
}

std::int64_t Normalizer::binding_alignment() const {
    // In elements: a multiple of 4 (vec4 windows) and of minStorageBufferOffsetAlignment.
    std::int64_t a = std::max<std::int64_t>(1, static_cast<std::int64_t>(ctx_->limits().minStorageBufferOffsetAlignment / 4));
    return std::lcm<std::int64_t>(a, 4);
}

namespace {
bool vec4_layout(const StatLayout& L) {
    // Every run of a statistic starts 16-byte aligned and holds whole vec4s, and the 4 elements
    // of a pack share one γ/β (or, per element, use 4 consecutive ones).
    return L.segment_len % 4 == 0 && L.stat_stride % 4 == 0 && (L.segments == 1 || L.segment_stride % 4 == 0) &&
           (L.param_elem_div <= 1 || L.param_elem_div % 4 == 0) && (L.param_elem_div != 1 || L.param_stat_mul % 4 == 0);
}
}  // namespace

KernelPlan Normalizer::plan(const StatLayout& layout, const NormSpec& spec, bool allow_fused) const {
    KernelPlan p;
    const std::uint64_t count = static_cast<std::uint64_t>(layout.count());
    p.vec4 = vec4_layout(layout);
    const std::uint32_t pack = p.vec4 ? 4 : 1;
    const std::uint32_t max_vpt = p.vec4 ? kMaxVpt / 2 : kMaxVpt;
    p.apply_chunk_len = kApplyWg * kApplyVpt * pack;
    p.apply_chunks = static_cast<std::uint32_t>((count + p.apply_chunk_len - 1) / p.apply_chunk_len);
    if (!spec.uses_batch_stats()) {
        p.stats_from_running = true;
        return p;
    }
    const auto& l = ctx_->limits();
    const std::uint32_t wg_max = pow2_floor(std::min({256u, l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupInvocations}));
    const std::uint32_t sg = ctx_->subgroup_size();
    const std::uint64_t packs = (count + pack - 1) / pack;
    const bool sg_ok = subgroup_owners_ && ctx_->subgroup_arithmetic() && ctx_->fixed_subgroup_size() && sg <= wg_max;
    if (allow_fused && sg_ok && packs <= std::uint64_t{sg} * max_vpt) {
        // Whole statistics per subgroup: no barriers at all.
        p.fused = true;
        p.subgroup_stats = true;
        p.stats_wg = std::max(std::min(64u, wg_max), sg);
        p.stats_vpt = std::clamp<std::uint32_t>(pow2_ceil((packs + sg - 1) / sg), 1u, max_vpt);
        p.stats_per_wg = p.stats_wg / sg;
        p.chunk_len = static_cast<std::uint32_t>(count);
    } else if (allow_fused && packs <= std::uint64_t{wg_max} * max_vpt && !(sg_ok && ctx_->barriers_expensive())) {
        // One workgroup per statistic, x read once.
        p.fused = true;
        p.stats_wg = std::clamp<std::uint32_t>(pow2_ceil((packs + 7) / 8), std::min(32u, wg_max), wg_max);
        p.stats_vpt = std::clamp<std::uint32_t>(pow2_ceil((packs + p.stats_wg - 1) / p.stats_wg), 1u, max_vpt);
        p.chunk_len = p.stats_wg * p.stats_vpt * pack;
    } else if (sg_ok) {
        // Partials per subgroup (no barriers), merged with Chan's formula, then applied.
        p.subgroup_stats = true;
        p.stats_wg = std::max(std::min(64u, wg_max), sg);
        p.stats_vpt = max_vpt;
        p.stats_per_wg = p.stats_wg / sg;
        p.chunk_len = sg * p.stats_vpt * pack;
        p.chunks = static_cast<std::uint32_t>((count + p.chunk_len - 1) / p.chunk_len);
    } else {
        // Partials per workgroup.
        p.stats_wg = wg_max;
        p.stats_vpt = max_vpt / 2;
        p.chunk_len = p.stats_wg * p.stats_vpt * pack;
        p.chunks = static_cast<std::uint32_t>((count + p.chunk_len - 1) / p.chunk_len);
    }
    return p;
}

ComputeKernel& Normalizer::kernel(const std::string& shader, const std::vector<std::uint32_t>& spec) {
    auto key = std::make_pair(shader, spec);
    auto it = kernels_.find(key);
    if (it != kernels_.end()) return *it->second;
    auto k = std::make_unique<ComputeKernel>(*ctx_, shader, macros_, spec, 6, static_cast<std::uint32_t>(sizeof(Push)));
    return *kernels_.emplace(key, std::move(k)).first->second;
}

GpuBuffer& Normalizer::ensure(GpuBuffer& buf, vk::DeviceSize bytes, BufferKind kind) {
    bytes = std::max<vk::DeviceSize>(bytes, 16);
    if (!buf || buf.size() < bytes) {
        buf = GpuBuffer();  // free the old memory first
        buf = GpuBuffer(*ctx_, bytes, kind);
    }
    return buf;
}

NormResult Normalizer::run(const Tensor& x, const NormSpec& spec, const NormParams& params) {
    x.shape.validate();
    const std::int64_t numel = x.shape.numel();
    if (static_cast<std::int64_t>(x.data.size()) != numel)
        throw InputError("tensor data has " + std::to_string(x.data.size()) + " values, its shape " + x.shape.str() +
                         " needs " + std::to_string(numel));
    StatLayout layout = make_layout(spec, x.shape);
    params.validate(spec, layout);
    check_capacity(x.shape);
    const std::uint64_t bytes = static_cast<std::uint64_t>(numel) * 4;

    NormResult r;
    r.layout = layout;
    r.nonfinite_inputs = count_nonfinite(x.data);
    KernelPlan p = plan(layout, spec);
    // Tensors beyond one binding's range run in slabs; a statistic split over several slabs
    // cannot be finished by one kernel, so the plan switches to partials + merge + apply.
    SlabPlan slabs = plan_slabs(layout, max_binding_elements(), binding_alignment(), p.chunk_len ? p.chunk_len : 4);
    if (slabs.ranges > 1 && p.fused) {
        p = plan(layout, spec, /*allow_fused=*/false);
        slabs = plan_slabs(layout, max_binding_elements(), binding_alignment(), p.chunk_len);
    }
    const SlabPlan apply_slabs = plan_slabs(layout, max_binding_elements(), binding_alignment(), p.apply_chunk_len);
    r.stats_from_running = p.stats_from_running;
    const std::int64_t S = layout.stat_count;
    const double eps = spec.effective_eps();
    const bool rms = spec.method == Method::Rms;

    // What the shaders read besides x: γ, β, and per statistic either the running statistics
    // (eval) or the shift K = the statistic's first element.
    std::vector<float> w(static_cast<std::size_t>(layout.param_count), 1.0f), b(w.size(), 0.0f);
    if (spec.has_weight() && !params.weight.empty()) w = params.weight;
    if (spec.has_bias() && !params.bias.empty()) b = params.bias;
    std::vector<float> stats_in(static_cast<std::size_t>(S) * 4, 0.0f);
    for (std::int64_t st = 0; st < S; ++st) {
        float* v = &stats_in[static_cast<std::size_t>(st) * 4];
        if (p.stats_from_running) {
            double rm = params.running_mean.empty() ? 0.0 : params.running_mean[static_cast<std::size_t>(st)];
            double rv = params.running_var.empty() ? 1.0 : params.running_var[static_cast<std::size_t>(st)];
            v[0] = static_cast<float>(rm);
            v[2] = static_cast<float>(rv);
            v[3] = static_cast<float>(1.0 / std::sqrt(rv + eps));
        } else if (!rms) {
            v[0] = x.data[static_cast<std::size_t>(layout.element_offset(st, 0))];
        }
    }

    // Only x and y are split into slabs; γ/β, the statistics and the partials are bound whole,
    // so each must fit one binding (a one-line error names the limit otherwise).
    const vk::DeviceSize param_bytes = w.size() * 4, stat_bytes = static_cast<vk::DeviceSize>(S) * 16;
    const vk::DeviceSize partial_bytes = stat_bytes * std::max<std::uint32_t>(1, slabs.chunks_total);
    const vk::DeviceSize range = ctx_->limits().maxStorageBufferRange;  // the device's own limit, not a test's slab size
    auto fits = [&](vk::DeviceSize need, const std::string& what) {
        if (need > range)
            throw InputError(what + " need " + std::to_string(need) + " bytes, more than one binding of this device holds (" +
                             std::to_string(range) + " bytes, maxStorageBufferRange)");
    };
    fits(param_bytes, "γ and β of shape " + dims_str(layout.param_shape));
    fits(stat_bytes, "the " + std::to_string(S) + " statistics");
    fits(partial_bytes, "the partial sums of the " + std::to_string(S) + " statistics");

    ensure(x_, bytes, BufferKind::Device);
    ensure(y_, bytes, BufferKind::Device);
    ensure(w_, param_bytes, BufferKind::Device);
    ensure(b_, param_bytes, BufferKind::Device);
    ensure(stats_, stat_bytes, BufferKind::Device);
    ensure(partials_, partial_bytes, BufferKind::Device);

    Push push{};
    push.segment_len = u32(layout.segment_len);
    push.segment_stride = u32(layout.segment_stride);
    push.stat_stride = u32(layout.stat_stride);
    const Magic seg = magic(static_cast<std::uint64_t>(layout.segment_len));
    push.seg_magic = seg.m;
    push.seg_s1 = seg.s1;
    push.seg_s2 = seg.s2;
    push.pstat_mod = u32(layout.param_stat_mod);
    push.pstat_mul = u32(layout.param_stat_mul);
    push.pelem_div = u32(layout.param_elem_div);
    const Magic pe = magic(static_cast<std::uint64_t>(layout.param_elem_div));
    push.pe_magic = pe.m;
    push.pe_s1 = pe.s1;
    push.pe_s2 = pe.s2;
    push.eps = static_cast<float>(eps);

    // Specialization constants: the kernel's own (ids 0–5), then the layout's (ids 10–13).
    auto constants = [&](std::vector<std::uint32_t> own) {
        own.resize(10, 0u);
        const std::uint32_t param_mode = layout.param_elem_div == 0 ? 0u : layout.param_elem_div == 1 ? 1u : 2u;
        own.insert(own.end(), {layout.segments > 1 ? 1u : 0u, param_mode, spec.has_weight() ? 1u : 0u, spec.has_bias() ? 1u : 0u});
        return own;
    };
    // x and y bound as the slab's window; the small buffers as the bytes this run uses (a
    // buffer kept from a larger run may be larger than one binding may be).
    auto bind = [&](ComputeKernel& k, const Slab& slab) {
        const vk::DeviceSize off = static_cast<vk::DeviceSize>(slab.flat_base) * 4, len = static_cast<vk::DeviceSize>(slab.extent) * 4;
        const vk::DeviceSize pb = std::max<vk::DeviceSize>(param_bytes, 16);
        k.bind_ranges({{x_.handle(), off, len}, {y_.handle(), off, len}, {w_.handle(), 0, pb}, {b_.handle(), 0, pb},
                       {stats_.handle(), 0, std::max<vk::DeviceSize>(stat_bytes, 16)},
                       {partials_.handle(), 0, std::max<vk::DeviceSize>(partial_bytes, 16)}});
    };
    auto set_slab = [&](const Slab& slab, std::uint32_t chunk_len, std::uint32_t chunks_total) {
        push.stat_lo = u32(slab.stat_lo);
        push.slab_stats = u32(slab.stat_hi - slab.stat_lo);
        push.e_lo = u32(slab.e_lo);
        push.e_hi = u32(slab.e_hi);
        push.flat_base = u32(slab.flat_base);
        push.chunks = slab.chunks;
        push.chunk_len = chunk_len;
        push.chunk_base = slab.chunk_base;
        push.chunks_total = chunks_total;
    };
    auto stats_pass = [&](const vk::CommandBuffer& cmd, const Slab& slab) {
        auto& k = kernel("norm_stats.comp", constants({p.stats_wg, p.stats_vpt, rms ? 1u : 0u, p.fused ? 1u : 0u,
                                                      p.subgroup_stats ? 1u : 0u, p.vec4 ? 1u : 0u}));
        bind(k, slab);
        set_slab(slab, p.chunk_len, slabs.chunks_total);
        const std::uint64_t owners = static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * slab.chunks;
        GroupGrid g = group_grid(p.subgroup_stats ? (owners + p.stats_per_wg - 1) / p.stats_per_wg : owners, *ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    };
    auto merge_pass = [&](const vk::CommandBuffer& cmd) {
        auto& m = kernel("norm_merge.comp", constants({rms ? 1u : 0u}));
        bind(m, slabs.slabs.front());
        set_slab(Slab{0, S, 0, 0, 0, 0, 0, 0}, p.chunk_len, slabs.chunks_total);
        push.flat_base = u32(slabs.slabs.front().flat_base);
        GroupGrid g = group_grid((static_cast<std::uint64_t>(S) + kMergeWg - 1) / kMergeWg, *ctx_);
        push.groups_x = g.x;
        m.dispatch(cmd, &push, g.x, g.y);
    };
    auto apply_pass = [&](const vk::CommandBuffer& cmd, const Slab& slab) {
        auto& k = kernel("norm_apply.comp", constants({kApplyWg, kApplyVpt, rms ? 1u : 0u, p.vec4 ? 1u : 0u}));
        bind(k, slab);
        set_slab(slab, p.apply_chunk_len, apply_slabs.chunks_total);
        GroupGrid g = group_grid(static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * slab.chunks, *ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    };
    // Orders one pass's shader writes before the next pass's shader reads.
    auto shader_to_shader = [](const vk::CommandBuffer& cmd) {
        barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead);
    };

    // Uploads: straight into mapped device memory, or through staging buffers and copies.
    std::vector<std::function<void(const vk::CommandBuffer&)>> staged;
    auto upload = [&](GpuBuffer& dst, GpuBuffer& staging, const void* src, vk::DeviceSize n) {
        if (n == 0) return;
        if (dst.mappable()) {
            std::memcpy(dst.data(), src, n);
            return;
        }
        ensure(staging, n, BufferKind::Staging);
        std::memcpy(staging.data(), src, n);
        staged.push_back([&dst, &staging, n](const vk::CommandBuffer& cmd) {
            cmd.copyBuffer(staging.handle(), dst.handle(), vk::BufferCopy(0, 0, n));
        });
    };
    upload(x_, up_x_, x.data.data(), bytes);
    upload(w_, up_w_, w.data(), w.size() * 4);
    upload(b_, up_b_, b.data(), b.size() * 4);
    upload(stats_, up_stats_, stats_in.data(), stats_in.size() * 4);
    const bool staged_down = !y_.mappable() || !stats_.mappable();
    if (staged_down) {
        ensure(down_y_, bytes, BufferKind::Staging);
        ensure(down_stats_, static_cast<vk::DeviceSize>(S) * 16, BufferKind::Staging);
    }

    // Records uploads (first submit only), the dispatches between two timestamps, and the
    // readback (last submit only); submits and waits; adds the GPU time to r.gpu_ms.
    auto submit = [&](bool first, bool last, const std::function<void(const vk::CommandBuffer&)>& dispatches) {
        const vk::CommandBuffer cmd = *cmd_;
        cmd.reset();
        cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
        if (first && !staged.empty()) {
            for (auto& copy : staged) copy(cmd);
            // Orders the staging copies before the shaders read x, γ, β and the statistics.
            barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                    vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead);
        }
        if (*queries_) {
            cmd.resetQueryPool(*queries_, 0, 2);
            cmd.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *queries_, 0);
        }
        dispatches(cmd);
        if (*queries_) cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 1);
        if (last && staged_down) {
            // Orders the shaders' writes of y and the statistics before the copies read them.
            barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                    vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferRead);
            cmd.copyBuffer(y_.handle(), down_y_.handle(), vk::BufferCopy(0, 0, bytes));
            cmd.copyBuffer(stats_.handle(), down_stats_.handle(), vk::BufferCopy(0, 0, static_cast<vk::DeviceSize>(S) * 16));
            // Makes the copies' writes visible to the host's reads after the fence.
            barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                    vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
        } else if (last) {
            // Makes the shaders' writes of y and the statistics visible to the host's reads.
            barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                    vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
        }
        cmd.end();
        ctx_->submit_and_wait(cmd);
        if (*queries_) {
            auto [res, ts] = queries_.getResults<std::uint64_t>(0, 2, 2 * sizeof(std::uint64_t), sizeof(std::uint64_t),
                                                                vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
            if (res == vk::Result::eSuccess && ts[1] >= ts[0])
                r.gpu_ms += static_cast<double>(ts[1] - ts[0]) * ctx_->timestamp_period_ns() * 1e-6;
        }
    };

    if (slabs.slabs.size() == 1 && apply_slabs.slabs.size() == 1) {
        // Everything in one submit.
        submit(true, true, [&](const vk::CommandBuffer& cmd) {
            if (p.stats_from_running) {
                apply_pass(cmd, apply_slabs.slabs.front());
                return;
            }
            stats_pass(cmd, slabs.slabs.front());
            if (p.fused) return;
            shader_to_shader(cmd);
            merge_pass(cmd);
            shader_to_shader(cmd);
            apply_pass(cmd, apply_slabs.slabs.front());
        });
    } else {
        // One submit per slab: each binds its own window of x and y.
        bool first = true;
        if (!p.stats_from_running) {
            for (std::size_t i = 0; i < slabs.slabs.size(); ++i) {
                const bool last = p.fused && i + 1 == slabs.slabs.size();  // fused: y is written here
                submit(first, last, [&](const vk::CommandBuffer& cmd) { stats_pass(cmd, slabs.slabs[i]); });
                first = false;
            }
            if (!p.fused) submit(false, false, [&](const vk::CommandBuffer& cmd) { merge_pass(cmd); });
        }
        for (std::size_t i = 0; !p.fused && i < apply_slabs.slabs.size(); ++i) {
            submit(first, i + 1 == apply_slabs.slabs.size(), [&](const vk::CommandBuffer& cmd) { apply_pass(cmd, apply_slabs.slabs[i]); });
            first = false;
        }
    }

    const float* ysrc = static_cast<const float*>(staged_down ? down_y_.data() : y_.data());
    const float* ssrc = static_cast<const float*>(staged_down ? down_stats_.data() : stats_.data());
    r.y.shape = x.shape;
    r.y.data.assign(ysrc, ysrc + numel);
    r.rstd.resize(static_cast<std::size_t>(S));
    if (rms) r.mean_square.resize(static_cast<std::size_t>(S));
    else {
        r.mean.resize(static_cast<std::size_t>(S));
        r.var.resize(static_cast<std::size_t>(S));
    }
    for (std::int64_t st = 0; st < S; ++st) {
        const float* v = ssrc + st * 4;
        auto i = static_cast<std::size_t>(st);
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

}  // namespace normlab
