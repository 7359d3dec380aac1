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
    for (const std::string name : {"train_head_step", "train_head_loss", "train_linear_dw", "train_linear_dx",
                                   "train_linear_bwd", "train_norm_pgrad_dw", "train_norm_pgrad"}) {
        INFO(name);
        CHECK_NOTHROW(gpu::compile_glsl(name, gpu::shader_source(name + ".comp")));
    }
}

TEST_CASE("the mlp's head backward runs in the loss pass where 13 storage buffers bind", "[train][conv]") {
    // 4 layers of 32, batch 32, the norm before its activation, SGD: with 13 storage buffers the head's ∂X (with
    // f') and ∂W, ∂b (+SGD) run in train_head_step, a pass fewer than with 12 (train_head_loss, then the head's
    // train_linear_bwd) and 2 fewer than with 8 (train_linear_dx and train_linear_dw).
    train::TrainPlanOptions wide, twelve;
    wide.max_storage_buffers = train::kTrainHeadStepBuffers;
    twelve.max_storage_buffers = 12;
    for (train::TrainNorm norm : {train::TrainNorm::None, train::TrainNorm::Batch, train::TrainNorm::Layer,
                                  train::TrainNorm::Group, train::TrainNorm::Rms}) {
        const train::TrainConfig c = mlp(norm);
        INFO(train::train_norm_name(norm));
        const train::TrainProgram p = train::plan_mlp_training(c, wide), q = train::plan_mlp_training(c, twelve);
        CHECK(p.passes.size() + 1 == q.passes.size());
        CHECK(count(q, "train_head_loss") == 1);
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
    CHECK(train::plan_mlp_training(c, twelve).passes.size() == p.passes.size() + 1);
}

TEST_CASE("the mlp's small layers: a Linear's backward in one pass, a norm's ∂γ with the Linear's ∂W",
          "[train][conv]") {
    // 4 layers of 32, batch 32, SGD, 32 storage buffers: layers 3..1's dX + dW (train_linear_bwd, 9 buffers) and a
    // row norm's ∂γ, ∂β with the Linear's ∂W (train_norm_pgrad_dw, 16) each in one pass, one workgroup.
    train::TrainPlanOptions wide;
    wide.max_storage_buffers = 32;
    struct Want {
        train::TrainNorm norm;
        std::size_t passes, linear_bwd, pgrad_dw;
    };
    for (const Want& w : {Want{train::TrainNorm::None, 10, 3, 0}, Want{train::TrainNorm::Batch, 18, 3, 0},
                          Want{train::TrainNorm::Layer, 14, 0, 4}, Want{train::TrainNorm::Group, 14, 0, 4},
                          Want{train::TrainNorm::Rms, 14, 0, 4}}) {
        train::TrainConfig c = mlp(w.norm);
        INFO(train::train_norm_name(w.norm));
        const train::TrainProgram p = train::plan_mlp_training(c, wide);
        CHECK(p.passes.size() == w.passes);
        CHECK(count(p, "train_linear_bwd") == w.linear_bwd);
        CHECK(count(p, "train_norm_pgrad_dw") == w.pgrad_dw);
        CHECK(count(p, "train_linear_dx") == 0);
        CHECK(count(p, "train_norm_pgrad") == 0);
        for (const auto& pass : p.passes) {
            if (pass.kernel == "train_linear_bwd") {
                CHECK(pass.buffers.size() == 9);
                CHECK(pass.params.size() == 7);
                CHECK(pass.params[3] == 1);                  // ReLU's f'
                CHECK(pass.buffers[1] != p.find("unused"));  // X, whose values f' takes too
            }
            if (pass.kernel == "train_norm_pgrad_dw") {
                CHECK(pass.buffers.size() == 16);
                CHECK(pass.params.size() == 12);
                CHECK(pass.params[9] == 32);  // N, In, Out after train_norm_pgrad's 9 words
            }
            if (pass.kernel == "train_linear_bwd" || pass.kernel == "train_norm_pgrad_dw")
                CHECK(pass.groups == std::array<std::uint32_t, 3>{1, 1, 1});
        }
        // 15 storage buffers: no train_norm_pgrad_dw; 8: neither (and no train_head_step).
        train::TrainPlanOptions fifteen;
        fifteen.max_storage_buffers = 15;
        CHECK(train::plan_mlp_training(c, fifteen).passes.size() == w.passes + w.pgrad_dw);
        CHECK(count(train::plan_mlp_training(c), "train_linear_bwd") == 0);
        // A batch or width past one workgroup's 256 blocks keeps two passes (batch 1028: 257 × 8 blocks of dX).
        c.batch = 1028;
        c.samples = 2048;
        train::validate_train_config(c);
        const train::TrainProgram big = train::plan_mlp_training(c, wide);
        CHECK(count(big, "train_linear_bwd") == 0);
        // Batch norm past 1024 samples runs a workgroup per channel (no train_norm_bwd_params): its ∂γ pass and
        // layer 0's ∂W (no dX between them) become one.
        CHECK(count(big, "train_norm_pgrad_dw") ==
              (w.norm == train::TrainNorm::Batch ? 1u : w.pgrad_dw));  // ∂W: 8 × 9 blocks, whatever the batch
        c.batch = 32;
        c.width = 64;  // ∂W: 16 × 17 blocks
        train::validate_train_config(c);
        CHECK(count(train::plan_mlp_training(c, wide), "train_norm_pgrad_dw") == (w.pgrad_dw ? 1u : 0u));  // layer 0
    }
    CHECK(train::train_linear_fits_workgroup(32, 32, 32));
    CHECK(train::train_linear_fits_workgroup(64, 60, 32));       // 16 × 15, 8 × 16 blocks
    CHECK_FALSE(train::train_linear_fits_workgroup(72, 60, 4));  // 18 × 15
    CHECK(train::train_linear_fits_workgroup(4, 63, 64));        // 1 × 16, 16 × 16 blocks
    CHECK_FALSE(train::train_linear_fits_workgroup(4, 64, 64));  // ∂W: 16 × 17
}
