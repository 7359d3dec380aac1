#include "normlab/ops/normalizer.hpp"
#include "normlab/plan/pow2.hpp"

#include "normalizer_detail.hpp"

#include "normlab/core/error.hpp"
#include "normlab/plan/forward_inputs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <cstdlib>
#include <cstring>

namespace normlab::ops {
namespace {

constexpr std::uint32_t kMergeWg = 64;
// From this many partials per statistic on, norm_merge.comp gives each statistic a workgroup.
constexpr std::uint32_t kMergePerWorkgroup = 16;

}  // namespace

namespace {
gpu::ShaderMacros kernel_macros(const gpu::VulkanContext& ctx) {
    gpu::ShaderMacros m;
    if (ctx.subgroup_arithmetic()) m.emplace_back("NL_SUBGROUP_ARITH", "1");
    return m;
}
}  // namespace

Normalizer::Normalizer(const gpu::VulkanContext& ctx)
    : ctx_(&ctx),
      kernels_(ctx, kernel_macros(ctx), 6, static_cast<std::uint32_t>(sizeof(Push))),
      recorder_(ctx),
      staging_(ctx, recorder_) {
    // NORMLAB_KERNELS=workgroup keeps every reduction workgroup-wide, the plan a GPU with a
    // variable subgroup size gets; the tests run it on lavapipe too, so every path is covered.
    if (const char* k = std::getenv("NORMLAB_KERNELS"); k && std::string(k) == "workgroup") subgroup_owners_ = false;
    // NORMLAB_WG_MAX caps the reduction workgroups (default 256; the device's own limit applies),
    // for measuring the plan's workgroup size on a GPU without rebuilding.
    if (const char* w = std::getenv("NORMLAB_WG_MAX"); w && *w)
        wg_cap_ = std::clamp<std::uint32_t>(static_cast<std::uint32_t>(std::strtoul(w, nullptr, 10)), 32u, 1024u);
    // NORMLAB_NORM_LOOPED / NORMLAB_GRAD_LOOPED = 1 or 0 force the looped kernels or keep them off.
    auto forced = [](const char* name) {
        const char* f = std::getenv(name);
        return !f || !*f               ? plan::ForcedPath::Auto
               : std::string(f) == "1" ? plan::ForcedPath::Looped
                                       : plan::ForcedPath::Split;
    };
    forward_path_ = forced("NORMLAB_NORM_LOOPED");
    backward_path_ = forced("NORMLAB_GRAD_LOOPED");
}

plan::PlanDevice Normalizer::plan_device() const {
    const auto& l = ctx_->limits();
    plan::PlanDevice d = plan::vulkan_kernels();
    d.wg_max = plan::pow2_floor(std::min({wg_cap_, l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupInvocations}));
    d.subgroup = ctx_->subgroup_size();
    d.subgroup_owners =
        subgroup_owners_ && ctx_->subgroup_arithmetic() && ctx_->fixed_subgroup_size() && d.subgroup <= d.wg_max;
    d.cpu = ctx_->barriers_expensive();
    d.forward = forward_path_;
    d.backward = backward_path_;
    d.max_binding_elements = max_binding_elements();
    d.binding_alignment = binding_alignment();
    return d;
}

void Normalizer::check_capacity(const core::Shape4& shape) const {
    shape.validate();
    const std::uint64_t bytes = static_cast<std::uint64_t>(shape.numel()) * 4;
    // x and y each need one allocation; lavapipe's memory is the machine's RAM.
    const std::uint64_t max_alloc = ctx_->max_allocation_bytes();
    if (bytes > max_alloc)
        throw core::InputError("the tensor " + shape.str() + " needs " + std::to_string(bytes) +
                               " bytes per buffer, more than the device's " + "maxMemoryAllocationSize of " +
                               std::to_string(max_alloc) + " bytes");
    const std::uint64_t heap = ctx_->device_memory_bytes();
    if (2 * bytes > heap)
        throw core::InputError("the tensor " + shape.str() + " needs 2 x " + std::to_string(bytes) +
                               " bytes (x and y), more than the device's " + std::to_string(heap) + " bytes of memory");
}

std::int64_t Normalizer::max_binding_elements() const {
    std::uint64_t range = ctx_->limits().maxStorageBufferRange;
    if (const char* e = std::getenv("NORMLAB_MAX_BINDING_BYTES"); e && *e)  // tests: force slabs on small tensors
        range = std::min<std::uint64_t>(range, std::strtoull(e, nullptr, 10));
    return static_cast<std::int64_t>(range / 4);
}

std::int64_t Normalizer::binding_alignment() const {
    // In elements: a multiple of 4 (vec4 windows) and of minStorageBufferOffsetAlignment.
    std::int64_t a =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(ctx_->limits().minStorageBufferOffsetAlignment / 4));
    return std::lcm<std::int64_t>(a, 4);
}

plan::KernelPlan Normalizer::plan(const core::StatLayout& layout, const core::NormSpec& spec) const {
    return plan::plan_forward(layout, spec, plan_device());
}

gpu::GpuBuffer& Normalizer::ensure(gpu::GpuBuffer& buf, vk::DeviceSize bytes) {
    if (gpu::ensure_compute_buffer(*ctx_, buf, bytes) && &buf == &x_) x_loaded_.reset();
    return buf;
}

Push layout_push(const plan::LayoutParams& lp) {
    Push push{};
    push.segment_len = lp.segment_len;
    push.segment_stride = lp.segment_stride;
    push.stat_stride = lp.stat_stride;
    push.seg_magic = lp.segment_magic.m;
    push.seg_s1 = lp.segment_magic.s1;
    push.seg_s2 = lp.segment_magic.s2;
    push.pstat_mod = lp.pstat_mod;
    push.pstat_mul = lp.pstat_mul;
    push.pelem_div = lp.pelem_div;
    push.pe_magic = lp.pelem_magic.m;
    push.pe_s1 = lp.pelem_magic.s1;
    push.pe_s2 = lp.pelem_magic.s2;
    push.eps = lp.eps;
    return push;
}

Normalizer::Prepared Normalizer::prepare(const core::Tensor& x, const core::NormSpec& spec,
                                         const core::NormParams& params) const {
    Prepared p;
    p.spec = spec;
    p.layout = plan::checked_forward_layout(x, spec, params);
    const core::StatLayout& layout = p.layout;
    check_capacity(x.shape);
    p.bytes = static_cast<std::uint64_t>(x.shape.numel()) * 4;
    const plan::PlanDevice device = plan_device();
    p.plan = plan::plan_forward(layout, spec, device);
    // Tensors beyond one binding's range run in slabs; a statistic split over several slabs
    // cannot be finished by one kernel, so the plan switches to partials + merge + apply.
    p.slabs =
        plan::plan_slabs(layout, max_binding_elements(), binding_alignment(), p.plan.chunk_len ? p.plan.chunk_len : 4);
    if (p.slabs.ranges > 1 && p.plan.fused) {
        p.plan = plan::plan_forward(layout, spec, device, {/*fused=*/false, /*looped=*/false});
        p.slabs = plan::plan_slabs(layout, max_binding_elements(), binding_alignment(), p.plan.chunk_len);
    }
    p.apply_slabs = plan::plan_slabs(layout, max_binding_elements(), binding_alignment(), p.plan.apply_chunk_len);
    // The looped kernel (one owner walking all of a statistic's chunks) needs x and y in one window;
    // the split plan it walks stays the same.
    if (p.plan.looped && (p.slabs.slabs.size() != 1 || p.apply_slabs.slabs.size() != 1))
        p.plan = plan::plan_forward(layout, spec, device, {/*fused=*/false, /*looped=*/false});
    p.rms = spec.method == core::Method::Rms;
    fill_inputs(p, x, params);
    check_bindings(p);
    const plan::LayoutParams lp = plan::layout_params(layout, spec);
    p.push = layout_push(lp);
    p.layout_constants = {lp.segmented ? 1u : 0u, lp.param_mode, lp.has_w ? 1u : 0u, lp.has_b ? 1u : 0u};
    return p;
}

// γ, β (only where the spec has them: the shaders read them only then), and per statistic either
// the running statistics (eval) or the shift K (its first element): normlab/plan/forward_inputs.hpp.
void Normalizer::fill_inputs(Prepared& p, const core::Tensor& x, const core::NormParams& params) const {
    const core::StatLayout& layout = p.layout;
    const std::int64_t S = layout.stat_count;
    const auto P = static_cast<std::size_t>(layout.param_count);
    plan::ForwardParams wb = plan::forward_params(p.spec, params, layout, P);
    p.w = std::move(wb.weight);
    p.b = std::move(wb.bias);
    p.stats_in = plan::statistics_inputs(x, layout, params, p.plan.from_running, p.spec.effective_eps());
    p.param_bytes = P * 4;
    p.stat_bytes = static_cast<vk::DeviceSize>(S) * 16;
    p.partial_bytes = p.stat_bytes * std::max<std::uint32_t>(1, p.slabs.chunks_total);
}

// Only x and y are split into slabs; γ/β, the statistics and the partials are bound whole,
// so each must fit one binding (a one-line error names the limit otherwise).
void Normalizer::check_bindings(const Prepared& p) const {
    const std::int64_t S = p.layout.stat_count;
    const vk::DeviceSize range =
        ctx_->limits().maxStorageBufferRange;  // the device's own limit, not a test's slab size
    auto fits = [&](vk::DeviceSize need, const std::string& what) {
        if (need > range)
            throw core::InputError(what + " need " + std::to_string(need) +
                                   " bytes, more than one binding of this device holds (" + std::to_string(range) +
                                   " bytes, maxStorageBufferRange)");
    };
    fits(p.param_bytes, "γ and β of shape " + core::dims_str(p.layout.param_shape));
    fits(p.stat_bytes, "the " + std::to_string(S) + " statistics");
    fits(p.partial_bytes, "the partial sums of the " + std::to_string(S) + " statistics");
}

void Normalizer::upload(const Prepared& p, const core::Tensor& x, bool upload_x) {
    ensure(x_, p.bytes);
    ensure(y_, p.bytes);
    ensure(w_, p.param_bytes);
    ensure(b_, p.param_bytes);
    ensure(stats_, p.stat_bytes);
    ensure(partials_, p.partial_bytes);
    std::vector<gpu::HostToDevice> copies{{&stats_, 0, p.stats_in.data(), p.stat_bytes}};
    // The shaders read γ (β) only where the spec has them (HAS_W, HAS_B).
    if (p.spec.has_weight()) copies.push_back({&w_, 0, p.w.data(), p.param_bytes});
    if (p.spec.has_bias()) copies.push_back({&b_, 0, p.b.data(), p.param_bytes});
    if (upload_x) copies.push_back({&x_, 0, x.data.data(), p.bytes});
    x_loaded_.reset();  // until the upload has finished
    staging_.upload(copies);
    x_loaded_ = x.shape;
}

// The three passes of one run, recorded into a command buffer: the statistics kernel (fused:
// it writes y too), the Chan merge of split statistics, and the apply kernel.
struct Normalizer::Passes {
    Normalizer& n;
    const Prepared& p;
    Push push;

    // Specialization constants: the kernel's own (ids 0–6), then the layout's (ids 10–13).
    std::vector<std::uint32_t> constants(std::vector<std::uint32_t> own) const {
        own.resize(10, 0u);
        own.insert(own.end(), p.layout_constants.begin(), p.layout_constants.end());
        return own;
    }
    // x and y bound as the slab's window; the small buffers as the bytes this run uses (a
    // buffer kept from a larger run may be larger than one binding may be).
    void bind(gpu::ComputeKernel& k, const plan::Slab& slab) const {
        const vk::DeviceSize off = static_cast<vk::DeviceSize>(slab.flat_base) * 4,
                             len = static_cast<vk::DeviceSize>(slab.extent) * 4;
        const vk::DeviceSize pb = std::max<vk::DeviceSize>(p.param_bytes, 16);
        k.bind_ranges({{n.x_.handle(), off, len},
                       {n.y_.handle(), off, len},
                       {n.w_.handle(), 0, pb},
                       {n.b_.handle(), 0, pb},
                       {n.stats_.handle(), 0, std::max<vk::DeviceSize>(p.stat_bytes, 16)},
                       {n.partials_.handle(), 0, std::max<vk::DeviceSize>(p.partial_bytes, 16)}});
    }
    void set_slab(const plan::Slab& slab, std::uint32_t chunk_len, std::uint32_t chunks_total) {
        normlab::ops::set_slab(push, slab, chunk_len, chunks_total);
    }
    void stats(vk::CommandBuffer cmd, const plan::Slab& slab) {
        const plan::KernelPlan& plan = p.plan;
        auto& k = n.kernels_.get(
            "norm_stats.comp", constants({plan.stats_wg, plan.stats_vpt, p.rms ? 1u : 0u, plan.fused ? 1u : 0u,
                                          plan.subgroup_stats ? 1u : 0u, plan.vec4 ? 1u : 0u, plan.looped ? 1u : 0u}));
        bind(k, slab);
        set_slab(slab, plan.chunk_len, p.slabs.chunks_total);
        if (plan.looped) push.chunks = 1;  // one owner per statistic walks all its chunks
        const std::uint64_t owners = static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * push.chunks;
        plan::DispatchGrid g = gpu::group_grid(
            plan.subgroup_stats ? (owners + plan.stats_per_wg - 1) / plan.stats_per_wg : owners, *n.ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
    void merge(vk::CommandBuffer cmd) {
        const std::int64_t S = p.layout.stat_count;
        // Many partials per statistic: a workgroup merges each statistic's partials in parallel;
        // few: one invocation walks them.
        const bool per_wg = p.slabs.chunks_total >= kMergePerWorkgroup;
        auto& m = n.kernels_.get("norm_merge.comp", constants({p.rms ? 1u : 0u, per_wg ? 1u : 0u}));
        bind(m, p.slabs.slabs.front());
        set_slab(plan::Slab{0, S, 0, 0, 0, 0, 0, 0}, p.plan.chunk_len, p.slabs.chunks_total);
        push.flat_base = plan::u32(p.slabs.slabs.front().flat_base);
        const std::uint64_t groups = per_wg ? static_cast<std::uint64_t>(S) : (S + kMergeWg - 1) / kMergeWg;
        plan::DispatchGrid g = gpu::group_grid(groups, *n.ctx_);
        push.groups_x = g.x;
        m.dispatch(cmd, &push, g.x, g.y);
    }
    void apply(vk::CommandBuffer cmd, const plan::Slab& slab) {
        auto& k = n.kernels_.get("norm_apply.comp",
                                 constants({plan::kApplyWg, plan::kApplyVpt, p.rms ? 1u : 0u, p.plan.vec4 ? 1u : 0u}));
        bind(k, slab);
        set_slab(slab, p.plan.apply_chunk_len, p.apply_slabs.chunks_total);
        plan::DispatchGrid g =
            gpu::group_grid(static_cast<std::uint64_t>(slab.stat_hi - slab.stat_lo) * slab.chunks, *n.ctx_);
        push.groups_x = g.x;
        k.dispatch(cmd, &push, g.x, g.y);
    }
};

double Normalizer::dispatch(const Prepared& p) {
    const plan::KernelPlan& plan = p.plan;
    Passes passes{*this, p, p.push};
    // One submission: the timed dispatches, then a barrier so the host may read mapped y and
    // statistics (staged readbacks are ordered by the next submission's first barrier).
    double gpu_ms = 0.0;
    auto submit = [&](const std::function<void(vk::CommandBuffer)>& dispatches) {
        vk::CommandBuffer cmd = recorder_.begin();
        recorder_.start_timer();
        dispatches(cmd);
        recorder_.stop_timer();
        // Makes the shaders' writes of y and the statistics visible to the host's reads.
        gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                            vk::PipelineStageFlagBits::eHost, vk::AccessFlagBits::eHostRead);
        gpu_ms += recorder_.submit();
    };

    if (p.slabs.slabs.size() == 1 && p.apply_slabs.slabs.size() == 1) {
        // Everything in one submit.
        submit([&](vk::CommandBuffer cmd) {
            if (plan.from_running) {
                passes.apply(cmd, p.apply_slabs.slabs.front());
                return;
            }
            passes.stats(cmd, p.slabs.slabs.front());
            if (plan.fused || plan.looped) return;
            shader_to_shader(cmd);  // the chunks' partial sums before their merge
            passes.merge(cmd);
            shader_to_shader(cmd);  // μ and σ² before the apply reads them
            passes.apply(cmd, p.apply_slabs.slabs.front());
        });
        return gpu_ms;
    }
    // One submit per slab: each binds its own window of x and y (descriptor sets are rewritten
    // between submissions, never while one is pending).
    if (!plan.from_running) {
        for (const plan::Slab& slab : p.slabs.slabs) submit([&](vk::CommandBuffer cmd) { passes.stats(cmd, slab); });
        if (!plan.fused) submit([&](vk::CommandBuffer cmd) { passes.merge(cmd); });
    }
    for (std::size_t i = 0; !plan.fused && i < p.apply_slabs.slabs.size(); ++i)
        submit([&](vk::CommandBuffer cmd) { passes.apply(cmd, p.apply_slabs.slabs[i]); });
    return gpu_ms;
}

void Normalizer::read_back(const Prepared& p, core::NormResult& r, bool read_y) {
    const std::int64_t S = p.layout.stat_count;
    std::vector<float> st(static_cast<std::size_t>(S) * 4);
    std::vector<gpu::DeviceToHost> copies{{&stats_, 0, st.data(), p.stat_bytes}};
    if (read_y && y_.mappable()) {  // mapped (integrated GPUs, lavapipe): one copy, no zero-fill first
        const auto* y = static_cast<const float*>(y_.data());
        r.y.data.assign(y, y + p.bytes / 4);
    } else if (read_y) {
        r.y.data.resize(static_cast<std::size_t>(p.bytes / 4));
        copies.push_back({&y_, 0, r.y.data.data(), p.bytes});
    }
    staging_.download(copies);
    core::unpack_stats(r, st.data(), p.rms);
}

// plan → upload → dispatch → read back, each timed.
core::NormResult Normalizer::run(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                                 const plan::RunOptions& options) {
    last_.reset();
    auto prepared = std::make_shared<const Prepared>(prepare(x, spec, params));
    const Prepared& p = *prepared;
    core::NormResult r;
    r.layout = p.layout;
    r.stats_from_running = p.plan.from_running;
    const bool reuse = options.reuse_x && x_loaded_ && *x_loaded_ == x.shape;
    r.nonfinite_inputs = reuse ? x_nonfinite_ : core::count_nonfinite(x.data);
    r.y.shape = x.shape;

    auto t = std::chrono::steady_clock::now();
    upload(p, x, !reuse);
    x_nonfinite_ = r.nonfinite_inputs;
    r.upload_ms = plan::ms_since(t);
    t = std::chrono::steady_clock::now();
    r.gpu_ms = dispatch(p);
    r.dispatch_ms = plan::ms_since(t);
    t = std::chrono::steady_clock::now();
    read_back(p, r, options.read_y);
    r.readback_ms = plan::ms_since(t);
    core::update_running_stats(spec, params, r);
    last_ = prepared;  // x, the statistics and γ/β on the device now belong to this run (backward.cpp)
    return r;
}

bool Normalizer::last_run_looped() const { return last_ && last_->plan.looped; }

void Normalizer::load_values(const core::Tensor& x, const core::Tensor& y) {
    if (x.shape != y.shape || x.data.size() != y.data.size())
        throw core::InputError("load_values: x " + x.shape.str() + " and y " + y.shape.str() + " differ in shape");
    const vk::DeviceSize bytes = x.data.size() * 4;
    ensure(x_, bytes);
    ensure(y_, bytes);
    x_loaded_.reset();
    last_.reset();
    staging_.upload({{&x_, 0, x.data.data(), bytes}, {&y_, 0, y.data.data(), bytes}});
    x_loaded_ = x.shape;
    x_nonfinite_ = core::count_nonfinite(x.data);
}

}  // namespace normlab::ops
