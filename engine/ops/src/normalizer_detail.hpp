// Internal to normlab_ops: the push constants of the normalization kernels, what one forward
// run prepares, and the barrier both passes use
// (shared by normalizer.cpp and backward.cpp).
#pragma once
#include "normlab/plan/backend_helpers.hpp"
#include "normlab/plan/layout_params.hpp"
#include "normlab/ops/normalizer.hpp"

#include <chrono>
#include <cstdint>
#include <vector>

namespace normlab::ops {

// Orders one pass's shader writes before the next pass's shader reads.
inline void shader_to_shader(vk::CommandBuffer cmd) {
    gpu::memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                        vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderRead);
}

// Mirrors `Push` in shaders/norm_common.glsl.
struct Push {
    std::uint32_t stat_lo, slab_stats, segment_len, segment_stride, stat_stride;
    std::uint32_t e_lo, e_hi, flat_base, chunks, chunk_len, chunk_base, chunks_total, groups_x;
    std::uint32_t seg_magic, seg_s1, seg_s2;
    std::uint32_t pstat_mod, pstat_mul;
    std::uint32_t pelem_div, pe_magic, pe_s1, pe_s2;
    float eps;
    std::uint32_t gstat_seg_mul, gstat_p_div;  // backward's γ/β pass: the statistic of an element
};
static_assert(sizeof(Push) == 100);

// The push constants of one slab: its statistics and elements, and the chunking of its partials.
inline void set_slab(Push& push, const plan::Slab& slab, std::uint32_t chunk_len, std::uint32_t chunks_total) {
    push.stat_lo = plan::u32(slab.stat_lo);
    push.slab_stats = plan::u32(slab.stat_hi - slab.stat_lo);
    push.e_lo = plan::u32(slab.e_lo);
    push.e_hi = plan::u32(slab.e_hi);
    push.flat_base = plan::u32(slab.flat_base);
    push.chunks = slab.chunks;
    push.chunk_len = chunk_len;
    push.chunk_base = slab.chunk_base;
    push.chunks_total = chunks_total;
}

// The push constants a layout fixes (normlab/plan/layout_params.hpp): its segmentation (with the
// magic numbers of the division by segment_len), its γ/β indexing and ε. The slab's fields are set
// per pass (set_slab).
Push layout_push(const plan::LayoutParams& lp);

// What one run needs besides x: the layout, the kernel plan, the slabs, the push constants
// common to every pass, and the small inputs (γ, β, and per statistic either the running
// statistics (eval) or the shift K = the statistic's first element).
struct Normalizer::Prepared {
    core::NormSpec spec;
    core::StatLayout layout;
    plan::KernelPlan plan;
    plan::SlabPlan slabs, apply_slabs;
    bool rms = false;
    std::uint64_t bytes = 0;  // x and y
    std::vector<float> w, b, stats_in;
    vk::DeviceSize param_bytes = 0, stat_bytes = 0, partial_bytes = 0;
    Push push{};
    std::vector<std::uint32_t> layout_constants;  // specialization constants 10–13
};

}  // namespace normlab::ops
