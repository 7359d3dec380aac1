// The mlp's step on a device that binds many storage buffers (lavapipe binds 32): the head's backward in the
// loss pass (train_head_step), by the planner's binding limits; which kernels, words and buffers the passes get,
// and the pass counts with 8 storage buffers (WebGPU's default) beside them. The float64 reference and PyTorch
// golden runs (test_train_reference.cpp, test_train_golden.cpp) run these plans on the device.
#include "normlab/gpu/shader_library.hpp"
#include "normlab/train/train_plan.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace normlab;

namespace {

std::size_t count(const train::TrainProgram& p, const std::string& kernel) {
    return static_cast<std::size_t>(
        std::count_if(p.passes.begin(), p.passes.end(), [&](const train::TrainPass& t) { return t.kernel == kernel; }));
}

train::TrainConfig mlp(train::TrainNorm norm) {
    train::TrainConfig c;
    c.depth = 4;
    c.width = 32;
    c.batch = 32;
    c.norm = norm;
    c.groups = norm == train::TrainNorm::Group ? 4 : 1;
    train::validate_train_config(c);
    return c;
}

}  // namespace

TEST_CASE("the mlp's fused step kernels compile", "[train][conv]") {
    for (const std::string name : {"train_head_step", "train_head_loss", "train_linear_dw", "train_linear_dx"}) {
        INFO(name);
        CHECK_NOTHROW(gpu::compile_glsl(name, gpu::shader_source(name + ".comp")));
    }
}

TEST_CASE("the mlp's head backward runs in the loss pass where 13 storage buffers bind", "[train][conv]") {
    // 4 layers of 32, batch 32, the norm before its activation, SGD: with 32 storage buffers the head's ∂X (with
    // f') and ∂W, ∂b (+SGD) run in train_head_step, 2 passes fewer than with 12 (train_head_loss, then the head's
    // train_linear_dx and train_linear_dw).
    train::TrainPlanOptions wide, twelve;
    wide.max_storage_buffers = 32;
    twelve.max_storage_buffers = 12;
    for (train::TrainNorm norm : {train::TrainNorm::None, train::TrainNorm::Batch, train::TrainNorm::Layer,
                                  train::TrainNorm::Group, train::TrainNorm::Rms}) {
        const train::TrainConfig c = mlp(norm);
        INFO(train::train_norm_name(norm));
        const train::TrainProgram p = train::plan_mlp_training(c, wide), q = train::plan_mlp_training(c, twelve);
        CHECK(p.passes.size() + 2 == q.passes.size());
        CHECK(count(p, "train_head_step") == 1);
        CHECK(count(p, "train_head_loss") == 0);
        CHECK(count(q, "train_head_step") == 0);
        const auto it = std::find_if(p.passes.begin(), p.passes.end(),
                                     [](const train::TrainPass& t) { return t.kernel == "train_head_step"; });
        REQUIRE(it != p.passes.end());
        CHECK(it->buffers.size() == train::kTrainHeadStepBuffers);
        CHECK(it->groups == std::array<std::uint32_t, 3>{1, 1, 1});
        REQUIRE(it->params.size() == 9);
        CHECK(it->params[4] == 2);                // Out: the classes
        CHECK(it->params[5] == 1);                // ReLU's f' (the head's input X is its output)
        CHECK(it->params[6] == 1);                // SGD fused
        CHECK(it->buffers[0] != it->buffers[8]);  // X and dX
        CHECK(it->buffers[8] == p.find("grad.layers.3.out"));
        CHECK(it->buffers[11] == p.find("head.weight.momentum_buffer"));
        // No other pass binds the head's weight or its gradient.
        for (const auto& pass : p.passes) {
            if (&pass == &*it) continue;
            CHECK(std::count(pass.buffers.begin(), pass.buffers.end(), p.find("head.weight")) == 0);
            CHECK(std::count(pass.buffers.begin(), pass.buffers.end(), p.find("grad.head.weight")) == 0);
        }
        // The layers' backward starts after it, from its dX.
        CHECK((it + 1)->buffers[0] == it->buffers[8]);
    }
    // The norm after its activation: the head's input is the norm's output, no f' (act 0); Adam: no SGD words, the
    // optimizer's passes after the backward.
    train::TrainConfig c = mlp(train::TrainNorm::Layer);
    c.norm_after = true;
    c.optimizer = train::TrainOptimizer::Adam;
    const train::TrainProgram p = train::plan_mlp_training(c, wide);
    const auto it = std::find_if(p.passes.begin(), p.passes.end(),
                                 [](const train::TrainPass& t) { return t.kernel == "train_head_step"; });
    REQUIRE(it != p.passes.end());
    CHECK(it->params[5] == 0);
    CHECK(it->params[6] == 0);
    CHECK(it->buffers[11] == p.find("unused"));
    CHECK(count(p, "train_adam") == 18);
    CHECK(train::plan_mlp_training(c, twelve).passes.size() == p.passes.size() + 2);
}
