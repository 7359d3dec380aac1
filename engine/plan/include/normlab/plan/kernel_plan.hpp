// kernel_plan: the one forward kernel plan of every backend (the Vulkan Normalizer, the WebGPU
// WgpuNormalizer). Each backend describes its device and its kernels in a PlanDevice, and
// plan_forward chooses from the StatLayout alone (never from benchmark shapes):
//   - a statistic of ≤ subgroup size × max_vpt accesses where subgroups may own statistics: one
//     subgroup per statistic, no barriers (subgroup_stats, fused);
//   - a statistic of ≤ wg_max × max_vpt accesses: one workgroup reads it once into registers,
//     reduces and writes y (fused); on a CPU device not where subgroups own statistics, nor
//     (cpu_loop_min_accesses) from that many accesses on;
//   - longer statistics: looped (normlab/plan/looped_forward.hpp: one owner per statistic loops
//     over it twice) or split (chunks write partials, a merge, an apply pass);
//   - BatchNorm eval with running statistics: the apply pass alone.
#pragma once
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cstdint>
#include <limits>

namespace normlab::plan {

// A forced path for statistics too long for the fused kernel (tests, benches): Auto (the device's
// choice), Split (never looped; also no CPU loop of statistics that fit) or Looped.
enum class ForcedPath { Auto, Split, Looped };

struct PlanDevice {
    // The device.
    std::uint32_t wg_max = 256;              // largest reduction workgroup, a power of two
    std::uint32_t subgroup = 1;              // subgroup size
    bool subgroup_owners = false;            // subgroups may own statistics or chunks (fixed size, arithmetic)
    bool cpu = false;                        // a CPU device (lavapipe, SwiftShader): barriers cost more than a read
    ForcedPath forward = ForcedPath::Auto;   // the forward's looped kernel
    ForcedPath backward = ForcedPath::Auto;  // the backward's looped kernel (Looped: also where the forward fused)
    // The kernels (GLSL or WGSL).
    std::uint32_t max_vpt = 32;      // floats one fused invocation holds in registers (vec4s: half)
    std::uint32_t split_wg_cap = 0;  // split statistics: workgroup ≤ this (0: wg_max)
    std::uint32_t split_vpt = 16;    // split statistics: floats per invocation (vec4s: half)
    // The looped kernel's own workgroup (0: it walks the split plan's chunks with its workgroup) and,
    // on a CPU device, the invocations walking one span together (0: the workgroup).
    std::uint32_t looped_wg = 0, cpu_lane_span = 0;
    // On a CPU device, statistics of at least this many accesses loop although they fit (0: never).
    std::uint64_t cpu_loop_min_accesses = 0;
    // The fused plan's chunk_len: the whole statistic (true) or the kernel's tile, wg · vpt accesses.
    bool fused_chunk_whole = false;
    // Windows (slabs, normlab/plan/slab_plan.hpp): the most elements one binding covers, and the
    // alignment of a window's start in elements.
    std::int64_t max_binding_elements = std::numeric_limits<std::int64_t>::max(), binding_alignment = 4;
    // The backward's kernels (normlab/plan/backward_plan.hpp): accesses per invocation of the reduce
    // kernel; its workgroups sized to the statistic (no subgroup owners) or the device's; 16-byte
    // accesses in the split passes where the layout allows; the ∂L/∂x workgroup narrowed for short
    // statistics; a fused kernel; a looped kernel; ∂L/∂γ, ∂L/∂β from the statistics pass's and the
    // one-pass kernels' own partials (one γ per chunk, rows) instead of a pass of their own.
    std::uint32_t grad_reduce_vpt = 32;
    bool grad_reduce_fit = false, grad_vec4 = true, grad_apply_fit = true;
    bool grad_fused = true, grad_looped = true, grad_sums_in_pass = true;
};

struct KernelPlan {
    bool from_running = false;       // batch eval: apply kernel only
    bool fused = false;              // statistics and y in one kernel
    bool subgroup_stats = false;     // each subgroup owning whole statistics or chunks
    bool looped = false;             // statistics and y in one kernel, one owner looping per statistic
    bool vec4 = false;               // 16-byte accesses (vec4_runs): chunk lengths count floats
    std::uint32_t stats_per_wg = 1;  // statistics (or chunks) per workgroup (subgroup_stats)
    std::uint32_t stats_wg = 0;      // workgroup size of the statistics kernel
    std::uint32_t stats_vpt = 0;     // accesses (floats, or vec4s) per invocation
    std::uint32_t lane_span = 0;     // looped: invocations that walk one span together (0: the workgroup)
    std::uint32_t chunks = 1;        // workgroups (owners) per statistic in the statistics kernel
    std::uint32_t chunk_len = 0;     // elements per chunk
    std::uint32_t apply_chunks = 1;  // workgroups per statistic in the apply kernel
    std::uint32_t apply_chunk_len = 0;
};

// The apply kernel's shape, the same on every backend: 256 invocations of 4 accesses each.
inline constexpr std::uint32_t kApplyWg = 256, kApplyVpt = 4;

// What may run in one kernel: fused = false where a statistic is split over windows (slabs),
// looped = false where x and y are not one window.
struct PlanWindows {
    bool fused = true, looped = true;
};

KernelPlan plan_forward(const core::StatLayout& layout, const core::NormSpec& spec, const PlanDevice& device,
                        PlanWindows windows = {});

// The two kernel families' traits (everything but the device's own limits and the forced path).
PlanDevice vulkan_kernels();
PlanDevice wgsl_kernels();

}  // namespace normlab::plan
