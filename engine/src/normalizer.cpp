#include "normlab/normalizer.hpp"

#include "normlab/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace normlab {
namespace {

// Mirrors `Push` in shaders/norm_common.glsl.
struct Push {
    std::uint32_t stat_count, segments, segment_len, segment_stride, stat_stride;
    std::uint32_t count, chunks, chunk_len, flags, groups_x;
    std::uint32_t seg_magic, seg_s1, seg_s2;
    std::uint32_t pstat_mod, pstat_mul;
    std::uint32_t pelem_div, pe_magic, pe_s1, pe_s2;
    float eps;
};
static_assert(sizeof(Push) == 80);

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
    if (bytes > ctx_->limits().maxStorageBufferRange)
        throw InputError("the tensor " + shape.str() + " has " + std::to_string(shape.numel()) + " elements (" +
                         std::to_string(bytes) + " bytes), more than the device's maxStorageBufferRange of " +
                         std::to_string(ctx_->limits().maxStorageBufferRange) + " bytes");
}

bool vec4_layout(const StatLayout& L) {
    // Every run of a statistic starts 16-byte aligned and holds whole vec4s, and the 4 elements
    // of a pack share one γ/β (or, per element, use 4 consecutive ones).
    return L.segment_len % 4 == 0 && L.stat_stride % 4 == 0 && (L.segments == 1 || L.segment_stride % 4 == 0) &&
           (L.param_elem_div <= 1 || L.param_elem_div % 4 == 0) && (L.param_elem_div != 1 || L.param_stat_mul % 4 == 0);
}

KernelPlan Normalizer::plan(const StatLayout& layout, const NormSpec& spec) const {
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
    if (sg_ok && packs <= std::uint64_t{sg} * max_vpt) {
        // Whole statistics per subgroup: no barriers at all.
        p.fused = true;
        p.subgroup_stats = true;
        p.stats_wg = std::max(std::min(64u, wg_max), sg);
        p.stats_vpt = std::clamp<std::uint32_t>(pow2_ceil((packs + sg - 1) / sg), 1u, max_vpt);
        p.stats_per_wg = p.stats_wg / sg;
        p.chunk_len = static_cast<std::uint32_t>(count);
    } else if (packs <= std::uint64_t{wg_max} * max_vpt && !(sg_ok && ctx_->barriers_expensive())) {
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
    const KernelPlan p = plan(layout, spec);
    r.stats_from_running = p.stats_from_running;
    const std::int64_t S = layout.stat_count;
    const double eps = spec.effective_eps();
    const bool rms = spec.method == Method::Rms;

    // Inputs that the shaders read: x, γ, β and (eval) the running statistics.
    std::vector<float> w(static_cast<std::size_t>(layout.param_count), 1.0f), b(w.size(), 0.0f);
    if (spec.has_weight() && !params.weight.empty()) w = params.weight;
    if (spec.has_bias() && !params.bias.empty()) b = params.bias;
    std::vector<float> eval_stats;
    if (p.stats_from_running) {
        eval_stats.resize(static_cast<std::size_t>(S) * 4);
        for (std::int64_t c = 0; c < S; ++c) {
            double rm = params.running_mean.empty() ? 0.0 : params.running_mean[static_cast<std::size_t>(c)];
            double rv = params.running_var.empty() ? 1.0 : params.running_var[static_cast<std::size_t>(c)];
            float* st = &eval_stats[static_cast<std::size_t>(c) * 4];
            st[0] = static_cast<float>(rm);
            st[1] = 0.0f;
            st[2] = static_cast<float>(rv);
            st[3] = static_cast<float>(1.0 / std::sqrt(rv + eps));
        }
    }

    ensure(x_, bytes, BufferKind::Device);
    ensure(y_, bytes, BufferKind::Device);
    ensure(w_, w.size() * 4, BufferKind::Device);
    ensure(b_, b.size() * 4, BufferKind::Device);
    ensure(stats_, static_cast<vk::DeviceSize>(S) * 16, BufferKind::Device);
    ensure(partials_, static_cast<vk::DeviceSize>(S) * p.chunks * 16, BufferKind::Device);

    const vk::CommandBuffer cmd = *cmd_;
    cmd.reset();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));

    // Uploads: straight into mapped device memory, or through a staging buffer and a copy.
    bool staged_upload = false;
    auto upload = [&](GpuBuffer& dst, GpuBuffer& staging, const void* src, vk::DeviceSize n) {
        if (n == 0) return;
        if (dst.mappable()) {
            std::memcpy(dst.data(), src, n);
            return;
        }
        ensure(staging, n, BufferKind::Staging);
        std::memcpy(staging.data(), src, n);
        cmd.copyBuffer(staging.handle(), dst.handle(), vk::BufferCopy(0, 0, n));
        staged_upload = true;
    };
    upload(x_, up_x_, x.data.data(), bytes);
    upload(w_, up_w_, w.data(), w.size() * 4);
    upload(b_, up_b_, b.data(), b.size() * 4);
    if (p.stats_from_running) upload(stats_, up_stats_, eval_stats.data(), eval_stats.size() * 4);
    if (staged_upload)
        // Orders the staging copies before the shaders read x, γ, β and the statistics.
        barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead);

    if (*queries_) {
        cmd.resetQueryPool(*queries_, 0, 2);
        cmd.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *queries_, 0);
    }

    Push push{};
    push.stat_count = u32(S);
    push.segments = u32(layout.segments);
    push.segment_len = u32(layout.segment_len);
    push.segment_stride = u32(layout.segment_stride);
    push.stat_stride = u32(layout.stat_stride);
    push.count = u32(layout.count());
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
    const std::vector<vk::Buffer> bindings{x_.handle(), y_.handle(), w_.handle(), b_.handle(), stats_.handle(), partials_.handle()};

    // Specialization constants: the kernel's own (ids 0–5), then the layout's (ids 10–13).
    auto constants = [&](std::vector<std::uint32_t> own) {
        own.resize(10, 0u);
        const std::uint32_t param_mode = layout.param_elem_div == 0 ? 0u : layout.param_elem_div == 1 ? 1u : 2u;
        own.insert(own.end(), {layout.segments > 1 ? 1u : 0u, param_mode, spec.has_weight() ? 1u : 0u, spec.has_bias() ? 1u : 0u});
        return own;
    };
    auto apply = [&]() {
        auto& k = kernel("norm_apply.comp", constants({kApplyWg, kApplyVpt, rms ? 1u : 0u, p.vec4 ? 1u : 0u}));
        k.bind(bindings);
        push.chunks = p.apply_chunks;
        push.chunk_len = p.apply_chunk_len;
        GroupGrid g = group_grid(static_cast<std::uint64_t>(S) * p.apply_chunks, *ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    };
    if (p.stats_from_running) {
        apply();
    } else {
        auto& k = kernel("norm_stats.comp", constants({p.stats_wg, p.stats_vpt, rms ? 1u : 0u, p.fused ? 1u : 0u,
                                                              p.subgroup_stats ? 1u : 0u, p.vec4 ? 1u : 0u}));
        k.bind(bindings);
        push.chunks = p.chunks;
        push.chunk_len = p.chunk_len;
        const std::uint64_t owners = static_cast<std::uint64_t>(S) * p.chunks;
        const std::uint64_t groups = p.subgroup_stats ? (owners + p.stats_per_wg - 1) / p.stats_per_wg : owners;
        GroupGrid g = group_grid(groups, *ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
        if (!p.fused) {
            // Orders the partial sums written by the statistics kernel before the merge reads them.
            barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                    vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead);
            auto& m = kernel("norm_merge.comp", constants({rms ? 1u : 0u}));
            m.bind(bindings);
            GroupGrid gm = group_grid((static_cast<std::uint64_t>(S) + kMergeWg - 1) / kMergeWg, *ctx_);
            push.groups_x = gm.x;
            m.dispatch(cmd, &push, gm.x, gm.y);
            // Orders the merged statistics before the apply kernel reads them.
            barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                    vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead);
            apply();
        }
    }
    if (*queries_) cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 1);

    // Readbacks: y and the statistics, mapped or copied to staging buffers.
    bool staged_down = !y_.mappable() || !stats_.mappable();
    if (staged_down) {
        ensure(down_y_, bytes, BufferKind::Staging);
        ensure(down_stats_, static_cast<vk::DeviceSize>(S) * 16, BufferKind::Staging);
        // Orders the shaders' writes of y and the statistics before the copies read them.
        barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferRead);
        cmd.copyBuffer(y_.handle(), down_y_.handle(), vk::BufferCopy(0, 0, bytes));
        cmd.copyBuffer(stats_.handle(), down_stats_.handle(), vk::BufferCopy(0, 0, static_cast<vk::DeviceSize>(S) * 16));
        // Makes the copies' writes visible to the host's reads after the fence.
        barrier(cmd, vk::PipelineStageFlagBits::eTransfer, vk::AccessFlagBits::eTransferWrite,
                vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
    } else {
        // Makes the shaders' writes of y and the statistics visible to the host's reads.
        barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
    }
    cmd.end();
    ctx_->submit_and_wait(cmd);

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
    for (std::int64_t s = 0; s < S; ++s) {
        const float* st = ssrc + s * 4;
        auto i = static_cast<std::size_t>(s);
        if (rms) {
            r.mean_square[i] = st[2];
        } else {
            r.mean[i] = static_cast<double>(st[0]) + static_cast<double>(st[1]);
            r.var[i] = st[2];
        }
        r.rstd[i] = st[3];
    }
    if (*queries_) {
        auto [res, ts] = queries_.getResults<std::uint64_t>(0, 2, 2 * sizeof(std::uint64_t), sizeof(std::uint64_t),
                                                            vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
        if (res == vk::Result::eSuccess && ts[1] >= ts[0])
            r.gpu_ms = static_cast<double>(ts[1] - ts[0]) * ctx_->timestamp_period_ns() * 1e-6;
    }
    update_running_stats(spec, params, r);
    return r;
}

}  // namespace normlab
