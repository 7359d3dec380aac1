// plan_backward (normlab/plan/backward_plan.hpp), the one backward plan of the Vulkan and the
// WebGPU backends: its important decisions pinned for both kernel families on a CPU device and a GPU.
#include <catch2/catch.hpp>

#include "normlab/plan/backward_plan.hpp"

using namespace normlab;

namespace {

plan::PlanDevice vulkan(bool cpu) {  // lavapipe (subgroups of 8, a CPU) or a GPU with subgroups of 32
    plan::PlanDevice d = plan::vulkan_kernels();
    d.wg_max = 256;
    d.subgroup = cpu ? 8 : 32;
    d.subgroup_owners = true;
    d.cpu = cpu;
    return d;
}
plan::PlanDevice webgpu(bool cpu) {  // SwiftShader or a GPU
    plan::PlanDevice d = plan::wgsl_kernels();
    d.wg_max = 256;
    d.cpu = cpu;
    return d;
}

plan::BackwardPlan make_plan(const core::NormSpec& spec, const core::Shape4& shape, const plan::PlanDevice& d) {
    const core::StatLayout L = core::make_layout(spec, shape);
    return plan::plan_backward(L, spec, plan::plan_forward(L, spec, d), 1, d);
}

core::NormSpec layer(std::vector<std::int64_t> normalized) {
    core::NormSpec s = core::default_spec(core::Method::Layer);
    s.normalized_shape = std::move(normalized);
    return s;
}

}  // namespace

TEST_CASE("plan_backward: a fused forward gives a fused backward with ∂L/∂γ from its rows", "[plan]") {
    const plan::BackwardPlan b = make_plan(layer({256}), core::Shape4::flat(8, 256), vulkan(true));
    CHECK(b.fused);
    CHECK_FALSE(b.looped);
    CHECK(b.rows);
    CHECK(b.rows_per == 8);
    CHECK(b.row_blocks == 1);
    // Forced looped (NORMLAB_GRAD_LOOPED=1): also where the forward fused.
    plan::PlanDevice forced = vulkan(false);
    forced.backward = plan::ForcedPath::Looped;
    const plan::BackwardPlan l = make_plan(layer({256}), core::Shape4::flat(8, 256), forced);
    CHECK(l.looped);
    CHECK_FALSE(l.fused);
    CHECK(l.looped_sg);
    CHECK(l.looped_wg == 32);
}

TEST_CASE("plan_backward: split statistics loop on a CPU device, split on a GPU with few owners", "[plan]") {
    const core::NormSpec bn = core::default_spec(core::Method::Batch);
    const core::Shape4 shape{2, 4, 384, 384};
    const plan::BackwardPlan cpu = make_plan(bn, shape, vulkan(true));
    CHECK(cpu.looped);
    CHECK(cpu.one_gamma);
    CHECK(cpu.params_from_stats);
    CHECK(cpu.chunks_per_gamma == 1);
    CHECK(cpu.looped_wg == 8);
    const plan::BackwardPlan gpu = make_plan(bn, shape, vulkan(false));
    CHECK_FALSE(gpu.looped);
    CHECK_FALSE(gpu.fused);
    CHECK(gpu.chunk_len == 32 * 32 * 4);
    CHECK(gpu.reduce_slabs.chunks_total == 72);
    CHECK(gpu.params_from_stats);  // one γ per statistic: every chunk has one
    CHECK(gpu.chunks_per_gamma == 72);
    // GroupNorm with a γ per channel: chunks of one channel; looped channel by channel.
    core::NormSpec gn = core::default_spec(core::Method::Group);
    gn.groups = 2;
    const plan::BackwardPlan g = make_plan(gn, {2, 8, 16, 16}, vulkan(true));
    CHECK(g.chunk_len == 256);
    CHECK(g.looped);
    CHECK(g.run_gamma);
    CHECK(g.gamma_runs == 4);
}

TEST_CASE("plan_backward: no one-pass kernel where the tensor runs in slabs", "[plan]") {
    plan::PlanDevice d = vulkan(true);
    d.max_binding_elements = 4096;
    const core::NormSpec bn = core::default_spec(core::Method::Batch);
    const core::StatLayout L = core::make_layout(bn, {2, 4, 64, 64});
    const plan::KernelPlan fwd = plan::plan_forward(L, bn, d, {false, false});
    const plan::BackwardPlan b =
        plan::plan_backward(L, bn, fwd, plan::plan_slabs(L, 4096, 4, fwd.chunk_len).slabs.size(), d);
    CHECK(b.reduce_slabs.slabs.size() > 1);
    CHECK_FALSE(b.looped);
    CHECK_FALSE(b.fused);
    CHECK(b.params_from_stats);
}

TEST_CASE("plan_backward: WGSL: fused where the forward fused, looped or reduce and apply sized to the statistic",
          "[plan]") {
    for (bool cpu : {true, false}) {
        const plan::BackwardPlan l = make_plan(layer({256}), core::Shape4::flat(8, 256), webgpu(cpu));
        CHECK(l.fused);
        CHECK_FALSE(l.looped);
        CHECK(l.rows);  // ∂L/∂γ, ∂L/∂β from the fused kernel's rows, as on Vulkan
        CHECK(l.rows_per == 8);
        CHECK(l.row_blocks == 1);
        CHECK_FALSE(l.params_from_stats);
        CHECK(l.wg == 32);
        CHECK(l.chunk_len == 256);
        CHECK(l.columns);
        CHECK(l.apply_wg == 256);
        const plan::BackwardPlan b = make_plan(core::default_spec(core::Method::Batch), {2, 4, 384, 384}, webgpu(cpu));
        CHECK_FALSE(b.fused);
        CHECK(b.looped == cpu);             // 4 owners: enough on a CPU device; on a GPU 2^17+ elements are too long
        if (cpu) CHECK(b.looped_wg == 64);  // the WGSL kernels' looped workgroup
        CHECK(b.one_gamma);
        CHECK(b.params_from_stats);  // one γ per statistic: no γ/β pass
        CHECK(b.chunks_per_gamma == (cpu ? 1u : 144u));
        CHECK(b.wg == 256);
        CHECK(b.reduce_slabs.chunks_total == 144);
        // 2048 statistics of 16,384 elements (too long for the fused kernel): looped on a GPU too.
        core::NormSpec in = core::default_spec(core::Method::Instance);
        in.affine = true;
        const plan::BackwardPlan i = make_plan(in, {32, 64, 128, 128}, webgpu(cpu));
        CHECK_FALSE(i.fused);
        CHECK(i.looped);
        CHECK(i.looped_wg == 64);
        CHECK(i.params_from_stats);
        // Forced split: the reduce, merge and apply passes.
        plan::PlanDevice split = webgpu(cpu);
        split.backward = plan::ForcedPath::Split;
        CHECK_FALSE(make_plan(in, {32, 64, 128, 128}, split).looped);
        // GroupNorm with a γ per channel of 1024 elements: looped channel by channel on a CPU device;
        // on a GPU (4 owners) chunks of one channel, the reduce workgroup fitted to them.
        core::NormSpec gn = core::default_spec(core::Method::Group);
        gn.groups = 2;
        const plan::BackwardPlan g = make_plan(gn, {2, 64, 32, 32}, webgpu(cpu));
        CHECK_FALSE(g.fused);
        CHECK(g.params_from_stats);
        CHECK(g.chunk_len == 1024);
        CHECK(g.wg == 128);
        CHECK(g.looped == cpu);
        if (cpu) CHECK(g.gamma_runs == 32);
        if (!cpu) CHECK(g.chunks_per_gamma == 1);
        if (!cpu) CHECK(g.reduce_slabs.chunks_total == 32);
    }
}
