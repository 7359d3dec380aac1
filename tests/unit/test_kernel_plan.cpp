// plan_forward (normlab/core/kernel_plan.hpp), the one forward plan of the Vulkan and the WebGPU
// backends: its important decisions pinned for both kernel families on a CPU device (lavapipe,
// SwiftShader) and on a GPU.
#include <catch2/catch.hpp>

#include "normlab/core/kernel_plan.hpp"

using namespace normlab;

namespace {

// Vulkan on lavapipe: subgroups of 8 own statistics, barriers are expensive.
PlanDevice lavapipe() {
    PlanDevice d = vulkan_kernels();
    d.wg_max = 256;
    d.subgroup = 8;
    d.subgroup_owners = true;
    d.cpu = true;
    return d;
}
// Vulkan on a GPU with a fixed subgroup of 32.
PlanDevice vulkan_gpu() {
    PlanDevice d = vulkan_kernels();
    d.wg_max = 256;
    d.subgroup = 32;
    d.subgroup_owners = true;
    return d;
}
PlanDevice swiftshader() {
    PlanDevice d = wgsl_kernels();
    d.wg_max = 256;
    d.cpu = true;
    return d;
}
PlanDevice webgpu_gpu() {
    PlanDevice d = wgsl_kernels();
    d.wg_max = 256;
    return d;
}

KernelPlan plan(const NormSpec& spec, const Shape4& shape, const PlanDevice& d, PlanWindows w = {}) {
    return plan_forward(make_layout(spec, shape), spec, d, w);
}

NormSpec layer(std::vector<std::int64_t> normalized) {
    NormSpec s = default_spec(Method::Layer);
    s.normalized_shape = std::move(normalized);
    return s;
}

}  // namespace

TEST_CASE("plan_forward: BatchNorm eval runs the apply kernel alone on every device", "[plan]") {
    NormSpec spec = default_spec(Method::Batch);
    spec.mode = Mode::Eval;
    for (const PlanDevice& d : {lavapipe(), vulkan_gpu(), swiftshader(), webgpu_gpu()}) {
        const KernelPlan p = plan(spec, {4, 8, 16, 16}, d);
        CHECK(p.from_running);
        CHECK_FALSE(p.fused);
        CHECK(p.apply_chunk_len == kApplyWg * kApplyVpt * 4);  // H·W = 256: whole vec4s
    }
}

TEST_CASE("plan_forward: short statistics are fused, per subgroup where subgroups own them", "[plan]") {
    const NormSpec spec = layer({256});  // [8, 256]: 64 vec4s per statistic
    const KernelPlan lp = plan(spec, Shape4::flat(8, 256), lavapipe());
    CHECK(lp.fused);
    CHECK(lp.subgroup_stats);
    CHECK(lp.vec4);
    CHECK(lp.stats_vpt == 8);  // 64 vec4s over 8 lanes
    CHECK(lp.stats_per_wg == 8);
    const KernelPlan wp = plan(spec, Shape4::flat(8, 256), webgpu_gpu());
    CHECK(wp.fused);
    CHECK_FALSE(wp.subgroup_stats);  // WGSL has no subgroup kernels
    CHECK(wp.stats_wg == 32);
    CHECK(wp.chunk_len == 256);  // the WGSL fused kernel reads chunk_len = the statistic
    // Not in one window: never fused.
    const KernelPlan split = plan(spec, Shape4::flat(8, 256), lavapipe(), {false, false});
    CHECK_FALSE(split.fused);
    CHECK_FALSE(split.looped);
    CHECK(split.chunks == 1);
}

TEST_CASE("plan_forward: a CPU device loops where a GPU fuses or splits", "[plan]") {
    // InstanceNorm at 16×64×64×64: 1024 vec4s per statistic.
    const NormSpec inst = default_spec(Method::Instance);
    const Shape4 big{16, 64, 64, 64};
    const KernelPlan sw = plan(inst, big, swiftshader());
    CHECK(sw.looped);  // fits the fused kernel, but loops from 1024 accesses on SwiftShader
    CHECK(sw.stats_wg == 64);
    CHECK(sw.lane_span == 4);
    CHECK(sw.chunks == 1);
    PlanDevice forced = swiftshader();
    forced.forward = ForcedPath::Split;  // the GPU's plan
    CHECK(plan(inst, big, forced).fused);
    const KernelPlan gpu = plan(inst, big, webgpu_gpu());
    CHECK(gpu.fused);
    CHECK(gpu.stats_wg == 128);
    CHECK(gpu.stats_vpt == 8);
    // On lavapipe a statistic longer than a subgroup's registers is not fused (barriers cost more):
    // the subgroup split plan, walked by one owner per statistic.
    const KernelPlan lp = plan(layer({4096}), Shape4::flat(2, 4096), lavapipe());
    CHECK_FALSE(lp.fused);
    CHECK(lp.looped);
    CHECK(lp.subgroup_stats);
    CHECK(lp.chunk_len == 8 * 16 * 4);
    CHECK(lp.chunks == 8);
}

TEST_CASE("plan_forward: long statistics split on a GPU, never loop there unless forced", "[plan]") {
    // BatchNorm on [2, 4, 384, 384]: 4 statistics of 294,912 elements.
    const NormSpec bn = default_spec(Method::Batch);
    const Shape4 shape{2, 4, 384, 384};
    const KernelPlan vg = plan(bn, shape, vulkan_gpu());
    CHECK_FALSE(vg.looped);
    CHECK(vg.subgroup_stats);
    CHECK(vg.chunks == 144);  // 32 lanes × 16 vec4s per chunk
    const KernelPlan wg = plan(bn, shape, webgpu_gpu());
    CHECK_FALSE(wg.looped);
    CHECK(wg.stats_wg == 64);
    CHECK(wg.stats_vpt == 32);
    CHECK(wg.chunks == 36);
    const KernelPlan sw = plan(bn, shape, swiftshader());
    CHECK(sw.looped);
    CHECK(sw.chunk_len == 294912);
    // 2048 statistics of 32,768 elements: split on a GPU too (normlab/core/looped_forward.hpp: on an H200
    // the looped kernel was slower), looped on a CPU device, and looped on a GPU only when forced.
    CHECK_FALSE(plan(layer({64, 512}), {2048, 1, 64, 512}, webgpu_gpu()).looped);
    CHECK(plan(layer({64, 512}), {2048, 1, 64, 512}, swiftshader()).looped);
    PlanDevice vk = vulkan_gpu();
    vk.subgroup_owners = false;
    CHECK_FALSE(plan(layer({64, 512}), {2048, 1, 64, 512}, vk).looped);
    vk.forward = ForcedPath::Looped;
    const KernelPlan forced = plan(layer({64, 512}), {2048, 1, 64, 512}, vk);
    CHECK(forced.looped);
    CHECK(forced.lane_span == 0);
    CHECK_FALSE(plan(layer({64, 512}), {2048, 1, 64, 512}, vulkan_gpu(), {true, false}).looped);
}
