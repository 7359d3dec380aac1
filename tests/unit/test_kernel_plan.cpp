// plan_forward (normlab/plan/kernel_plan.hpp), the one forward plan of the Vulkan and the WebGPU
// backends: its important decisions pinned for both kernel families on a CPU device (lavapipe,
// SwiftShader) and on a GPU.
#include <catch2/catch.hpp>

#include "normlab/plan/kernel_plan.hpp"

using namespace normlab;

namespace {

// Vulkan on lavapipe: subgroups of 8 own statistics, barriers are expensive.
plan::PlanDevice lavapipe() {
    plan::PlanDevice d = plan::vulkan_kernels();
    d.wg_max = 256;
    d.subgroup = 8;
    d.subgroup_owners = true;
    d.cpu = true;
    return d;
}
// Vulkan on a GPU with a fixed subgroup of 32.
plan::PlanDevice vulkan_gpu() {
    plan::PlanDevice d = plan::vulkan_kernels();
    d.wg_max = 256;
    d.subgroup = 32;
    d.subgroup_owners = true;
    return d;
}
plan::PlanDevice swiftshader() {
    plan::PlanDevice d = plan::wgsl_kernels();
    d.wg_max = 256;
    d.cpu = true;
    return d;
}
plan::PlanDevice webgpu_gpu() {
    plan::PlanDevice d = plan::wgsl_kernels();
    d.wg_max = 256;
    return d;
}

plan::KernelPlan make_plan(const core::NormSpec& spec, const core::Shape4& shape, const plan::PlanDevice& d,
                           plan::PlanWindows w = {}) {
    return plan::plan_forward(core::make_layout(spec, shape), spec, d, w);
}

core::NormSpec layer(std::vector<std::int64_t> normalized) {
    core::NormSpec s = core::default_spec(core::Method::Layer);
    s.normalized_shape = std::move(normalized);
    return s;
}

}  // namespace

TEST_CASE("plan_forward: BatchNorm eval runs the apply kernel alone on every device", "[plan]") {
    core::NormSpec spec = core::default_spec(core::Method::Batch);
    spec.mode = core::Mode::Eval;
    for (const plan::PlanDevice& d : {lavapipe(), vulkan_gpu(), swiftshader(), webgpu_gpu()}) {
        const plan::KernelPlan p = make_plan(spec, {4, 8, 16, 16}, d);
        CHECK(p.from_running);
        CHECK_FALSE(p.fused);
        CHECK(p.apply_chunk_len == plan::kApplyWg * plan::kApplyVpt * 4);  // H·W = 256: whole vec4s
    }
}

TEST_CASE("plan_forward: short statistics are fused, per subgroup where subgroups own them", "[plan]") {
    const core::NormSpec spec = layer({256});  // [8, 256]: 64 vec4s per statistic
    const plan::KernelPlan lp = make_plan(spec, core::Shape4::flat(8, 256), lavapipe());
    CHECK(lp.fused);
    CHECK(lp.subgroup_stats);
    CHECK(lp.vec4);
    CHECK(lp.stats_vpt == 8);  // 64 vec4s over 8 lanes
    CHECK(lp.stats_per_wg == 8);
    const plan::KernelPlan wp = make_plan(spec, core::Shape4::flat(8, 256), webgpu_gpu());
    CHECK(wp.fused);
    CHECK_FALSE(wp.subgroup_stats);  // WGSL has no subgroup kernels
    CHECK(wp.stats_wg == 32);
    CHECK(wp.chunk_len == 256);  // the WGSL fused kernel reads chunk_len = the statistic
    // Not in one window: never fused.
    const plan::KernelPlan split = make_plan(spec, core::Shape4::flat(8, 256), lavapipe(), {false, false});
    CHECK_FALSE(split.fused);
    CHECK_FALSE(split.looped);
    CHECK(split.chunks == 1);
}

TEST_CASE("plan_forward: a CPU device loops where a GPU fuses or splits", "[plan]") {
    // InstanceNorm at 16×64×64×64: 1024 vec4s per statistic.
    const core::NormSpec inst = core::default_spec(core::Method::Instance);
    const core::Shape4 big{16, 64, 64, 64};
    const plan::KernelPlan sw = make_plan(inst, big, swiftshader());
    CHECK(sw.looped);  // fits the fused kernel, but loops from 1024 accesses on SwiftShader
    CHECK(sw.stats_wg == 64);
    CHECK(sw.lane_span == 4);
    CHECK(sw.chunks == 1);
    plan::PlanDevice forced = swiftshader();
    forced.forward = plan::ForcedPath::Split;  // the GPU's plan
    CHECK(make_plan(inst, big, forced).fused);
    const plan::KernelPlan gpu = make_plan(inst, big, webgpu_gpu());
    CHECK(gpu.fused);
    CHECK(gpu.stats_wg == 128);
    CHECK(gpu.stats_vpt == 8);
    // On lavapipe a statistic longer than a subgroup's registers is not fused (barriers cost more):
    // the subgroup split plan, walked by one owner per statistic.
    const plan::KernelPlan lp = make_plan(layer({4096}), core::Shape4::flat(2, 4096), lavapipe());
    CHECK_FALSE(lp.fused);
    CHECK(lp.looped);
    CHECK(lp.subgroup_stats);
    CHECK(lp.chunk_len == 8 * 16 * 4);
    CHECK(lp.chunks == 8);
}

TEST_CASE("plan_forward: long statistics split on a GPU, never loop there unless forced", "[plan]") {
    // BatchNorm on [2, 4, 384, 384]: 4 statistics of 294,912 elements.
    const core::NormSpec bn = core::default_spec(core::Method::Batch);
    const core::Shape4 shape{2, 4, 384, 384};
    const plan::KernelPlan vg = make_plan(bn, shape, vulkan_gpu());
    CHECK_FALSE(vg.looped);
    CHECK(vg.subgroup_stats);
    CHECK(vg.chunks == 144);  // 32 lanes × 16 vec4s per chunk
    const plan::KernelPlan wg = make_plan(bn, shape, webgpu_gpu());
    CHECK_FALSE(wg.looped);
    CHECK(wg.stats_wg == 64);
    CHECK(wg.stats_vpt == 32);
    CHECK(wg.chunks == 36);
    const plan::KernelPlan sw = make_plan(bn, shape, swiftshader());
    CHECK(sw.looped);
    CHECK(sw.chunk_len == 294912);
    // 2048 statistics of 32,768 elements: split on a GPU too (normlab/plan/looped_forward.hpp: on an H200
    // the looped kernel was slower), looped on a CPU device, and looped on a GPU only when forced.
    CHECK_FALSE(make_plan(layer({64, 512}), {2048, 1, 64, 512}, webgpu_gpu()).looped);
    CHECK(make_plan(layer({64, 512}), {2048, 1, 64, 512}, swiftshader()).looped);
    plan::PlanDevice vk = vulkan_gpu();
    vk.subgroup_owners = false;
    CHECK_FALSE(make_plan(layer({64, 512}), {2048, 1, 64, 512}, vk).looped);
    vk.forward = plan::ForcedPath::Looped;
    const plan::KernelPlan forced = make_plan(layer({64, 512}), {2048, 1, 64, 512}, vk);
    CHECK(forced.looped);
    CHECK(forced.lane_span == 0);
    CHECK_FALSE(make_plan(layer({64, 512}), {2048, 1, 64, 512}, vulkan_gpu(), {true, false}).looped);
}
