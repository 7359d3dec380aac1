#include "normlab/plan/kernel_plan.hpp"

#include "normlab/plan/looped_forward.hpp"
#include "normlab/plan/pow2.hpp"
#include "normlab/plan/vec4_runs.hpp"

#include <algorithm>
#include <cstdint>

namespace normlab::plan {

PlanDevice vulkan_kernels() {
    PlanDevice d;
    d.max_vpt = 32;      // norm_stats.comp: 32 floats (16 vec4s) per invocation
    d.split_wg_cap = 0;  // split partials per workgroup: the widest workgroup …
    d.split_vpt = 16;    // … half of the fused registers
    d.looped_wg = 0;     // norm_stats.comp LOOPED walks the split plan's chunks
    d.fused_chunk_whole = false;
    return d;
}

// Split statistics (norm_partial.wgsl): 64 invocations (capped by the device) of 64 accesses in a
// loop (Welford) rather than registers: few long invocations and two barriers per chunk suit
// CPU-emulated adapters; chunks of 64 × 32 vec4s (or 64 × 64 floats) still make many. Looped
// statistics (norm_looped.wgsl): one workgroup of 64 per statistic; on a CPU-emulated adapter
// SwiftShader's SIMD width (4) walks one contiguous span together (LayerNorm 53 → 38 ms, RMSNorm
// 35 → 30 at 16×64×64×64, docs/bench/web.md). A statistic of 1024 accesses or more loops there
// although it fits the fused kernel: 1024 vec4s (InstanceNorm at 16×64×64×64) 93 ms looped against
// 158 fused, 2048 (GroupNorm G=8 at 16×64×32×32) 25 against 84; 512 about even (docs/bench/web.md).
PlanDevice wgsl_kernels() {
    PlanDevice d;
    d.max_vpt = 16;  // norm_stats.wgsl: 16 floats (8 vec4s) per invocation
    d.split_wg_cap = 64;
    d.split_vpt = 64;
    d.looped_wg = 64;
    d.cpu_lane_span = 4;
    d.cpu_loop_min_accesses = 1024;
    d.fused_chunk_whole = true;
    // The backward (grad_reduce.wgsl, grad_apply.wgsl): 8 floats per invocation, workgroups sized
    // to the statistic (or to a chunk of one γ), one float per access, 256 lanes for ∂L/∂x; the fused
    // kernel (grad_fused.wgsl) and the looped one (grad_looped.wgsl, a workgroup of at most looped_wg
    // per statistic); ∂L/∂γ, ∂L/∂β from their own partials as the GLSL kernels'.
    d.grad_reduce_vpt = 8;
    d.grad_reduce_fit = true;
    d.grad_vec4 = false;
    d.grad_apply_fit = false;
    d.grad_fused = true;
    d.grad_looped = true;
    d.grad_sums_in_pass = true;
    return d;
}

namespace {

std::uint32_t ceil_div32(std::uint64_t a, std::uint64_t b) { return static_cast<std::uint32_t>((a + b - 1) / b); }

// Chunks written as partials, merged with Chan's formula, then applied: per subgroup (no barriers)
// where subgroups may own them, else per workgroup.
void plan_split(KernelPlan& p, const PlanDevice& d, std::uint64_t count, std::uint32_t pack, std::uint32_t max_vpt) {
    if (d.subgroup_owners) {
        p.subgroup_stats = true;
        p.stats_wg = std::max(std::min(64u, d.wg_max), d.subgroup);
        p.stats_vpt = max_vpt;
        p.stats_per_wg = p.stats_wg / d.subgroup;
        p.chunk_len = d.subgroup * p.stats_vpt * pack;
    } else {
        p.stats_wg = d.split_wg_cap ? std::min(d.split_wg_cap, d.wg_max) : d.wg_max;
        p.stats_vpt = d.split_vpt / (pack == 4 ? 2 : 1);
        p.chunk_len = p.stats_wg * p.stats_vpt * pack;
    }
    p.chunks = ceil_div32(count, p.chunk_len);
}

}  // namespace

KernelPlan plan_forward(const core::StatLayout& layout, const core::NormSpec& spec, const PlanDevice& d,
                        PlanWindows w) {
    KernelPlan p;
    const auto count = static_cast<std::uint64_t>(layout.count());
    p.vec4 = vec4_runs(layout);
    const std::uint32_t pack = p.vec4 ? 4u : 1u;
    const std::uint32_t max_vpt = p.vec4 ? d.max_vpt / 2 : d.max_vpt;
    p.apply_chunk_len = kApplyWg * kApplyVpt * pack;
    p.apply_chunks = ceil_div32(count, p.apply_chunk_len);
    if (!spec.uses_batch_stats()) {
        p.from_running = true;
        return p;
    }
    const std::uint64_t packs = (count + pack - 1) / pack;
    const bool sg_ok = d.subgroup_owners;
    const bool cpu_loops =
        d.cpu && d.cpu_loop_min_accesses != 0 && d.forward != ForcedPath::Split && packs >= d.cpu_loop_min_accesses;
    if (w.fused && sg_ok && packs <= std::uint64_t{d.subgroup} * max_vpt) {
        // Whole statistics per subgroup: no barriers at all.
        p.fused = true;
        p.subgroup_stats = true;
        p.stats_wg = std::max(std::min(64u, d.wg_max), d.subgroup);
        p.stats_vpt = std::clamp<std::uint32_t>(pow2_ceil((packs + d.subgroup - 1) / d.subgroup), 1u, max_vpt);
        p.stats_per_wg = p.stats_wg / d.subgroup;
        p.chunk_len = static_cast<std::uint32_t>(count);
        return p;
    }
    if (w.fused && packs <= std::uint64_t{d.wg_max} * max_vpt && !(sg_ok && d.cpu) && !cpu_loops) {
        // One workgroup per statistic, x read once.
        p.fused = true;
        p.stats_wg = std::clamp<std::uint32_t>(pow2_ceil((packs + 7) / 8), std::min(32u, d.wg_max), d.wg_max);
        p.stats_vpt = std::clamp<std::uint32_t>(pow2_ceil((packs + p.stats_wg - 1) / p.stats_wg), 1u, max_vpt);
        p.chunk_len = d.fused_chunk_whole ? static_cast<std::uint32_t>(count) : p.stats_wg * p.stats_vpt * pack;
        return p;
    }
    // Too long for one fused owner (or not in one window): looped where the device suits it.
    p.looped = w.looped && (d.forward == ForcedPath::Looped ||
                            (d.forward == ForcedPath::Auto &&
                             looped_forward(d.cpu, static_cast<std::uint64_t>(layout.stat_count), count)));
    if (p.looped && d.looped_wg) {
        // One workgroup per statistic, looping: the statistic, then y.
        p.stats_wg = std::min(d.looped_wg, d.wg_max);
        p.stats_vpt = 1;  // unused: the loop runs to the statistic's end
        if (d.cpu && d.cpu_lane_span) p.lane_span = std::min(d.cpu_lane_span, p.stats_wg);
        p.chunk_len = static_cast<std::uint32_t>(count);
        return p;
    }
    plan_split(p, d, count, pack, max_vpt);  // looped without an own shape: one owner walks these chunks
    return p;
}

}  // namespace normlab::plan
