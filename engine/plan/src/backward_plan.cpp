#include "normlab/plan/backward_plan.hpp"

#include "normlab/plan/backend_helpers.hpp"
#include "normlab/plan/pow2.hpp"

#include <algorithm>

namespace normlab::plan {
namespace {

// The γ/β pass of layer/rms walks columns of this many rows; layer/rms owners add up ∂L/∂γ, ∂L/∂β
// over blocks of about this many statistics.
constexpr std::uint32_t kColumnRows = 64, kRowsPer = 32;
// The owners a GPU needs busy before one looped owner per statistic beats the split passes (a few
// per compute unit of a large GPU). A CPU device needs no more than one: on lavapipe the looped
// kernel was as fast as the split passes or faster at 1, 2 and 4 owners on 2 threads
// (docs/bench/lavapipe-backward.md).
constexpr std::uint64_t kGpuLoopedOwners = 2048, kCpuLoopedOwners = 1;
// The longest statistic a GPU owner loops over (x and dy: 2 × 64 KiB), so that the second read
// finds it in the cache while all the owners in flight share it; a CPU device runs an owner on
// one thread, whose cache holds it alone.
constexpr std::uint64_t kGpuLoopedElements = 16384;

// A workgroup no wider than `count` elements need at `vpt` each (≥ 32 lanes where the device allows).
std::uint32_t fitted_wg(std::uint64_t count, std::uint32_t vpt, std::uint32_t wg_max) {
    return std::clamp<std::uint32_t>(pow2_ceil((count + vpt - 1) / vpt), std::min(32u, wg_max), wg_max);
}

struct Planner {
    BackwardPlan& b;
    const core::StatLayout& L;
    const PlanDevice& d;

    // GroupNorm: chunks no longer than one channel, so that each has one γ where they divide it.
    void chunk_gamma(bool forward_from_running) {
        const bool one_per_stat = L.param_elem_div == 0 || (L.param_stat_mul == 1 && L.param_elem_div >= L.count());
        if (d.grad_sums_in_pass && L.param_elem_div > 1 && L.param_elem_div < b.chunk_len) {
            b.chunk_len = u32(L.param_elem_div);
            if (d.grad_reduce_fit) b.wg = fitted_wg(b.chunk_len, b.vpt, d.wg_max);  // no wider than the chunk
        }
        b.reduce_slabs = plan_slabs(L, d.max_binding_elements, d.binding_alignment, b.chunk_len);
        if (!d.grad_sums_in_pass || forward_from_running || L.param_elem_div == 1) return;
        b.one_gamma = one_per_stat;
        if (b.fused) {
            b.params_from_stats = one_per_stat;
            b.chunks_per_gamma = 1;
        } else if (L.param_elem_div == 0) {
            b.params_from_stats = true;
            b.chunks_per_gamma = b.reduce_slabs.chunks_total;
        } else if (b.reduce_slabs.ranges == 1 && (one_per_stat || L.param_elem_div % b.chunk_len == 0)) {
            b.params_from_stats = true;
            b.chunks_per_gamma = one_per_stat ? b.reduce_slabs.chunks_total : u32(L.param_elem_div / b.chunk_len);
        }
    }
    // Layer/rms: each owner adds up ∂L/∂γ, ∂L/∂β over blocks of ~kRowsPer statistics, so that the
    // per-element partials stay small (≤ 1/8 of x's bytes where S allows, ≤ 16 MiB, ≤ 1024 per element).
    void rows() {
        b.rows = true;
        const auto S = static_cast<std::uint64_t>(L.stat_count);
        const auto P = static_cast<std::uint64_t>(L.param_count);
        const std::uint64_t cap =
            std::max<std::uint64_t>(1, std::min<std::uint64_t>(1024, (std::uint64_t{1} << 20) / P));
        const std::uint64_t blocks = std::clamp<std::uint64_t>((S + kRowsPer - 1) / kRowsPer, 1, cap);
        b.rows_per = u32((S + blocks - 1) / blocks);
        b.row_blocks = u32((S + b.rows_per - 1) / b.rows_per);
    }
    // The looped kernel where the forward splits a statistic and the looped kernel gives ∂L/∂γ,
    // ∂L/∂β too (rows, one γ per statistic, or GroupNorm's γ per channel), the device has owners
    // enough and (a GPU) the statistic is short enough to stay in its cache between the two loops.
    // A forced path overrides the choice (tests, benches); Looped also where the forward fused, so
    // that the small golden fixtures run through the looped kernel too.
    // Where the kernels take ∂L/∂γ, ∂L/∂β from a pass of their own (no grad_sums_in_pass), the looped
    // kernel writes none and loops over any statistic; the γ/β pass follows it.
    void looped() {
        const bool channels = !b.rows && !b.one_gamma && L.param_elem_div > 1 && L.count() % L.param_elem_div == 0 &&
                              (!b.vec4 || L.param_elem_div % 4 == 0);
        const bool own_sums = d.grad_sums_in_pass;
        if (own_sums && !(b.rows ? b.rows_per <= kGradLoopedMaxRows : b.one_gamma || channels)) return;
        const auto owners = static_cast<std::uint64_t>((L.stat_count + b.rows_per - 1) / b.rows_per);
        b.looped = !b.fused &&
                   (d.cpu ? owners >= kCpuLoopedOwners
                          : owners >= kGpuLoopedOwners && static_cast<std::uint64_t>(L.count()) <= kGpuLoopedElements);
        if (d.backward != ForcedPath::Auto) b.looped = d.backward == ForcedPath::Looped;
        if (!b.looped) return;
        b.fused = false;
        // The kernel writes PARTIALS[s·runs + r] = (Σdy, Σdy·x̂, n), one γ each.
        if (own_sums && (b.one_gamma || channels)) {
            b.params_from_stats = true;
            b.chunks_per_gamma = 1;
            b.run_gamma = channels;
            b.gamma_runs = channels ? u32(L.count() / L.param_elem_div) : 1u;
        }
        // Lanes: one subgroup where the device allows; on a GPU more where that lets a statistic fit
        // one tile of the second loop (kGradLoopedVpt packs per lane), so that its loops run back to
        // back (a CPU device's barriers cost more than that saves: 2–2.5× the time of layer [H,W]).
        // At most the kernels' looped workgroup where they name one (the WGSL kernels: 64).
        const std::uint64_t pack = b.vec4 ? 4 : 1, packs = (static_cast<std::uint64_t>(L.count()) + pack - 1) / pack;
        const std::uint32_t cap = std::min({d.wg_max, kApplyWg, d.looped_wg ? d.looped_wg : kApplyWg});
        b.looped_wg = d.subgroup_owners ? d.subgroup : cap;
        if (!d.cpu && packs > std::uint64_t{b.looped_wg} * kGradLoopedVpt &&
            packs <= std::uint64_t{cap} * kGradLoopedVpt)
            b.looped_wg = std::max(b.looped_wg, pow2_ceil((packs + kGradLoopedVpt - 1) / kGradLoopedVpt));
        b.looped_sg = d.subgroup_owners && b.looped_wg == d.subgroup;
    }
};

}  // namespace

BackwardPlan plan_backward(const core::StatLayout& L, const core::NormSpec& spec, const KernelPlan& forward,
                           std::size_t forward_windows, const PlanDevice& d) {
    BackwardPlan b;
    Planner planner{b, L, d};
    const std::uint32_t wg_max = d.wg_max, sg = d.subgroup;
    const auto count = static_cast<std::uint64_t>(L.count());
    b.vpt = d.grad_reduce_vpt;
    b.subgroup_owners = d.subgroup_owners && !d.grad_reduce_fit;
    b.wg = d.grad_reduce_fit   ? fitted_wg(count, b.vpt, wg_max)
           : b.subgroup_owners ? std::max(std::min(64u, wg_max), sg)
                               : wg_max;
    b.owners_per_wg = b.subgroup_owners ? b.wg / sg : 1;
    const std::uint32_t lanes = b.subgroup_owners ? sg : b.wg;
    b.vec4 = forward.vec4 && d.grad_vec4;
    const std::uint32_t pack = b.vec4 ? 4u : 1u;
    b.chunk_len = lanes * b.vpt * pack;
    b.columns = spec.method == core::Method::Layer || spec.method == core::Method::Rms;
    b.eval = forward.from_running;
    b.fused = d.grad_fused && !b.eval && forward.fused && forward_windows == 1;
    planner.chunk_gamma(forward.from_running);
    b.pl = param_layout(L, spec);
    const core::StatLayout& q = b.pl.layout;
    b.param_vec4 =
        d.grad_vec4 && !b.columns && q.segment_len % 4 == 0 && q.stat_stride % 4 == 0 && q.segment_stride % 4 == 0;
    if (b.columns) {
        b.param_wg = d.grad_reduce_fit ? std::min(64u, wg_max) : 64u;
        b.param_chunk_len = kColumnRows;
    } else {
        b.param_wg = d.grad_reduce_fit ? fitted_wg(static_cast<std::uint64_t>(q.count()), b.vpt, wg_max) : b.wg;
        b.param_chunk_len = (d.grad_reduce_fit ? b.param_wg : lanes) * b.vpt * (b.param_vec4 ? 4u : 1u);
    }
    if (d.grad_apply_fit) {
        while (b.apply_wg > 32 && std::uint64_t{b.apply_wg / 2} * kApplyVpt * pack >= count) b.apply_wg /= 2;
        b.apply_wg = std::min(b.apply_wg, wg_max);
    }
    b.apply_slabs = plan_slabs(L, d.max_binding_elements, d.binding_alignment, b.apply_chunk_len());
    b.param_slabs = plan_slabs(q, d.max_binding_elements, d.binding_alignment, b.param_chunk_len);
    const auto S = static_cast<std::uint64_t>(L.stat_count), P = static_cast<std::uint64_t>(L.param_count);
    b.stat_partial_bytes = S * 16 * std::max<std::uint32_t>(1, b.reduce_slabs.chunks_total);
    b.stat_mean_bytes = S * 16;
    // Layer/rms in one window: ∂L/∂γ, ∂L/∂β partials from the kernel that writes ∂L/∂x.
    const bool one_window = b.reduce_slabs.slabs.size() == 1 && b.apply_slabs.slabs.size() == 1;
    if (d.grad_sums_in_pass && b.columns && (b.fused || one_window)) planner.rows();
    if (d.grad_looped && !b.eval && one_window) planner.looped();
    b.stat_partial_bytes = std::max<std::uint64_t>(b.stat_partial_bytes, S * 16 * b.gamma_runs);
    b.param_partial_bytes = P * 16 * std::max<std::uint32_t>({1, b.param_slabs.chunks_total, b.row_blocks});
    b.param_sum_bytes = P * 16;
    return b;
}

}  // namespace normlab::plan
