// The cnn ops' planning functions (engine/train: conv_plan, pool_plan, and the norms' train_norm_plan
// as both models' planners use it): which kernel, parameter words,
// grid and buffers each pass gets, and the shapes and buffers they refuse; and every train_conv* and
// train_pool* shader compiles (shaderc, no device).
#include "normlab/core/error.hpp"
#include "normlab/gpu/shader_library.hpp"
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_model_plan.hpp"
#include "normlab/train/conv_plan.hpp"
#include "normlab/train/pool_plan.hpp"
#include "normlab/train/texture_data.hpp"
#include "normlab/train/train_plan.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace normlab;

namespace {

// The plan tests' cnn: 3 conv layers of 4 channels on 16×16 textures, batch 8, 2 steps.
train::TrainConfig small_cnn() {
    train::TrainConfig c;
    c.model = train::TrainModel::Cnn;
    c.data = "textures";
    c.depth = 3;
    c.channels = 4;
    c.batch = 8;
    c.steps = 2;
    return c;
}

}  // namespace

TEST_CASE("conv passes: kernels, parameter words, grids, bindings", "[train][conv]") {
    train::ConvShape s{3, 2, 5, 8, 8};
    train::TrainProgram p;
    int x = p.add_buffer("x", s.x_size()), w = p.add_buffer("w", s.weight_size()), b = p.add_buffer("b", 5);
    int y = p.add_buffer("y", s.y_size()), dy = p.add_buffer("dy", s.y_size()), dx = p.add_buffer("dx", s.x_size());
    int dw = p.add_buffer("dw", s.weight_size()), db = p.add_buffer("db", 5);
    train::plan_conv3x3_forward(p, s, x, w, b, y);
    train::plan_conv3x3_backward_input(p, s, dy, w, dx);
    train::plan_conv3x3_grad_params(p, s, x, dy, dw, db);
    REQUIRE(p.passes.size() == 3);
    const std::vector<std::uint32_t> words{3, 2, 5, 8, 8};
    CHECK(p.passes[0].kernel == "train_conv_forward");
    CHECK(p.passes[0].params == words);
    // ⌈n · ⌈cout/4⌉ · h · ⌈w/4⌉ / 64⌉ workgroups: an invocation per 4 channels × 4 pixels
    CHECK(p.passes[0].groups == std::array<std::uint32_t, 3>{(3 * 2 * 8 * 2 + 63) / 64, 1, 1});
    CHECK(p.passes[0].buffers == std::vector<int>{x, w, b, y});
    CHECK(p.passes[1].kernel == "train_conv_backward_input");
    CHECK(p.passes[1].groups == std::array<std::uint32_t, 3>{(3 * 1 * 8 * 2 + 63) / 64, 1, 1});
    CHECK(p.passes[1].buffers == std::vector<int>{dy, w, dx});
    CHECK(p.passes[2].kernel == "train_conv_grad_params");
    CHECK(p.passes[2].groups == std::array<std::uint32_t, 3>{5 * 2 + 5, 1, 1});  // a (co, ci) pair each, then biases
    CHECK(p.passes[2].buffers == std::vector<int>{x, dy, dw, db});
    CHECK_THROWS_AS(train::plan_conv3x3_forward(p, train::ConvShape{3, 2, 5, 8, 9}, x, w, b, y), core::InternalError);
    CHECK_THROWS_AS(train::plan_conv3x3_forward(p, train::ConvShape{0, 2, 5, 8, 8}, x, w, b, y), core::InternalError);
    CHECK_THROWS_AS(train::plan_conv3x3_backward_input(p, s, dy, w, 99), core::InternalError);
}

TEST_CASE("pool passes: kernels, parameter words, grids, bindings", "[train][pool]") {
    train::PoolShape s{4, 3, 6, 5};
    train::TrainProgram p;
    int x = p.add_buffer("x", s.size()), y = p.add_buffer("y", 4 * 3 * 3 * 2), g = p.add_buffer("g", 12);
    train::plan_avgpool2_forward(p, s, x, y);
    train::plan_avgpool2_backward(p, s, y, x);
    train::plan_global_avgpool_forward(p, s, x, g);
    train::plan_global_avgpool_backward(p, s, g, x);
    REQUIRE(p.passes.size() == 4);
    CHECK(p.passes[0].kernel == "train_pool_avg2_forward");
    CHECK(p.passes[0].params == std::vector<std::uint32_t>{12, 6, 5});
    CHECK(p.passes[0].groups[0] == 2);  // 72 outputs
    CHECK(p.passes[1].groups[0] == 6);  // 360 inputs
    CHECK(p.passes[2].kernel == "train_pool_global_forward");
    CHECK(p.passes[2].params == std::vector<std::uint32_t>{12, 30});
    CHECK(p.passes[2].groups[0] == 12);  // a workgroup per plane
    CHECK(p.passes[3].buffers == std::vector<int>{g, x});
    CHECK_THROWS_AS(train::plan_avgpool2_forward(p, train::PoolShape{4, 3, 1, 5}, x, y), core::InternalError);
    CHECK_THROWS_AS(train::plan_global_avgpool_forward(p, train::PoolShape{4, 4, 6, 5}, x, g), core::InternalError);
}

TEST_CASE("a grid past 65535 workgroups goes over two dimensions", "[train][conv]") {
    auto g = train::train_grid(70000);
    CHECK(static_cast<std::uint64_t>(g[0]) * g[1] >= 70000);
    CHECK(g[0] <= 65535);
    CHECK(g[1] == 2);
    CHECK(train::train_grid(0) == std::array<std::uint32_t, 3>{1, 1, 1});
}

TEST_CASE("the train_conv and train_pool shaders compile", "[train][conv][pool]") {
    int found = 0;
    for (const auto& name : gpu::shader_names()) {
        if (name.rfind("train_conv", 0) != 0 && name.rfind("train_pool", 0) != 0) continue;
        ++found;
        INFO(name);
        CHECK_NOTHROW(gpu::compile_glsl(name, gpu::shader_source(name)));
        CHECK_NOTHROW(gpu::compile_glsl(name, gpu::shader_source(name), {{"NL_SUBGROUP_ARITH", "1"}}));
    }
    CHECK(found == 7);
}

TEST_CASE("the cnn's layer shapes: AvgPool2d(2) after layers 1, 3 and 5", "[train][conv]") {
    auto l = train::cnn_layer_shapes(7, 16, 32);
    REQUIRE(l.size() == 7);
    CHECK(l[0].conv.cin == 1);
    CHECK(l[1].conv.cin == 16);
    const int sides[] = {16, 16, 8, 8, 4, 4, 2};
    const int out[] = {16, 8, 8, 4, 4, 2, 2};
    for (int i = 0; i < 7; ++i) {
        INFO("layer " << i);
        CHECK(l[i].conv.n == 32);
        CHECK(l[i].conv.cout == 16);
        CHECK(l[i].conv.h == sides[i]);
        CHECK(l[i].conv.w == sides[i]);
        CHECK(l[i].out_side == out[i]);
        CHECK(l[i].pool_after == (i == 1 || i == 3 || i == 5));
    }
    CHECK(train::cnn_conv_weight_name(2) == "layers.2.conv.weight");
    CHECK(train::cnn_conv_bias_name(0) == "layers.0.conv.bias");
    CHECK_THROWS_AS(train::cnn_layer_shapes(0, 16, 32), core::InputError);
    CHECK_THROWS_AS(train::cnn_layer_shapes(9, 16, 32), core::InputError);
    CHECK_THROWS_AS(train::cnn_layer_shapes(2, 0, 32), core::InputError);
    CHECK_THROWS_AS(train::cnn_layer_shapes(2, 4, 0), core::InputError);
}

TEST_CASE("the cnn's initial parameters: PyTorch's names, shapes and bounds", "[train][conv]") {
    train::TrainConfig c;
    c.model = train::TrainModel::Cnn;
    c.depth = 3;
    c.channels = 8;
    c.classes = 5;
    c.data = "textures";
    for (train::TrainNorm norm :
         {train::TrainNorm::Batch, train::TrainNorm::Layer, train::TrainNorm::Instance, train::TrainNorm::None}) {
        c.norm = norm;
        INFO(train::train_norm_name(norm));
        auto p = train::init_cnn_params(c);
        const auto& w0 = train::find_tensor(p, "layers.0.conv.weight");
        CHECK(w0.shape == std::vector<std::int64_t>{8, 1, 3, 3});
        for (float v : w0.values) REQUIRE(std::abs(v) <= 1.0 / 3.0);
        const auto& w1 = train::find_tensor(p, "layers.1.conv.weight");
        CHECK(w1.shape == std::vector<std::int64_t>{8, 8, 3, 3});
        for (float v : w1.values) REQUIRE(std::abs(v) <= 1.0 / std::sqrt(72.0));
        CHECK(train::find_tensor(p, "head.weight").shape == std::vector<std::int64_t>{5, 8});
        CHECK(p.back().name == "head.bias");
        if (norm == train::TrainNorm::None) {
            CHECK_THROWS_AS(train::find_tensor(p, "layers.0.norm.weight"), core::InternalError);
            continue;
        }
        // Layer 2 runs on 8×8 (after the pool of layer 1): LayerNorm([C, H, W])'s affine is per element.
        const auto& g2 = train::find_tensor(p, "layers.2.norm.weight");
        if (norm == train::TrainNorm::Layer)
            CHECK(g2.shape == std::vector<std::int64_t>{8, 8, 8});
        else
            CHECK(g2.shape == std::vector<std::int64_t>{8});
        CHECK(std::all_of(g2.values.begin(), g2.values.end(), [](float v) { return v == 1.0f; }));
        bool running = true;
        try {
            train::find_tensor(p, "layers.0.norm.running_var");
        } catch (const core::InternalError&) {
            running = false;
        }
        CHECK(running == (norm == train::TrainNorm::Batch));
    }
    c.norm = train::TrainNorm::None;
    CHECK(train::init_cnn_params(c)[0].values == train::init_cnn_params(c)[0].values);  // deterministic from the seed
}

TEST_CASE("textures through the training data and its configuration checks", "[train][texture]") {
    train::TrainConfig c;
    c.model = train::TrainModel::Cnn;
    c.data = "textures";
    c.classes = 6;
    c.samples = 64;
    c.batch = 8;
    c.steps = 3;
    c.data_seed = 5;
    CHECK_NOTHROW(train::validate_train_config(c));
    train::TrainData d = train::make_train_data(c);
    CHECK(d.train.features == train::kTexturePixels);
    CHECK(d.train.samples() == 64);
    CHECK(d.val.samples() == train::validation_samples(c));
    CHECK(d.train.x == train::make_train_textures(c).train.x);
    CHECK(d.batches.size() == 24u);
    c.classes = 7;
    CHECK_THROWS_AS(train::validate_train_config(c), core::InputError);
    c.classes = 6;
    c.data = "spirals";
    CHECK_THROWS_AS(train::validate_train_config(c), core::InputError);
    c.model = train::TrainModel::Mlp;
    c.classes = 5;
    CHECK_THROWS_AS(train::validate_train_config(c), core::InputError);  // the mlp keeps 2–4 classes
}

TEST_CASE("the cnn's activation runs in its norm's forward pass where the norm comes before it", "[train][conv]") {
    // Conv → Norm → Act: train_norm_fwd applies the activation (its flags' act word) in the step and in the
    // evaluation, and no train_act pass runs forward; the activation's backward keeps its pass. Without a norm,
    // or with the norm after the activation, each layer keeps its train_act pass forward.
    train::TrainConfig c = small_cnn();
    c.activation = train::TrainActivation::Tanh;
    for (train::TrainNorm norm : {train::TrainNorm::None, train::TrainNorm::Batch, train::TrainNorm::Group})
        for (bool after : {false, true}) {
            c.norm = norm;
            c.norm_after = after;
            train::validate_train_config(c);
            const train::TrainProgram p = train::plan_cnn_training(c);
            const bool fused = norm != train::TrainNorm::None && !after;
            INFO("norm " << train::train_norm_name(norm) << (after ? " after" : " before"));
            for (const auto* passes : {&p.passes, &p.eval_passes}) {
                int act_fwd = 0, act_bwd = 0, norm_act = 0;
                for (const auto& pass : *passes) {
                    if (pass.kernel == "train_act") ++(pass.params[2] ? act_bwd : act_fwd);
                    if (pass.kernel == "train_norm_fwd" && (pass.params[10] >> train::kTrainNormActShift) != 0) {
                        CHECK((pass.params[10] >> train::kTrainNormActShift) ==
                              static_cast<std::uint32_t>(c.activation) + 1);
                        ++norm_act;
                    }
                }
                CHECK(act_fwd == (fused ? 0 : 3));
                CHECK(norm_act == (fused ? 3 : 0));
                CHECK(act_bwd == (passes == &p.passes ? 3 : 0));
            }
        }
}

TEST_CASE("the cnn's and the mlp's norms: one planner, small sets one invocation each", "[train][conv]") {
    // The cnn (4 channels, batch 8, 16×16 → 8×8 after layer 1's pool): InstanceNorm's sets of 256 and 64
    // elements and BatchNorm's of 2,048 and 512. Sets of at most serial_norm_members elements run one
    // invocation per set (flag 16, 64 sets a workgroup), larger ones a workgroup per set; 0: never.
    train::TrainConfig c = small_cnn();
    for (train::TrainNorm norm : {train::TrainNorm::Instance, train::TrainNorm::Batch})
        for (std::uint32_t serial : {0u, train::TrainPlanOptions{}.serial_norm_members}) {
            c.norm = norm;
            train::validate_train_config(c);
            const train::TrainProgram p = train::plan_cnn_training(c, train::TrainPlanOptions{serial});
            int fwd = 0, bwd = 0;
            for (const auto& pass : p.passes) {
                if (pass.kernel != "train_norm_fwd" && pass.kernel != "train_norm_bwd") continue;
                const std::uint32_t sets = pass.params[0], members = pass.params[1];
                const bool one_each = members <= serial;
                INFO(pass.kernel << " sets " << sets << " members " << members << " serial " << serial);
                CHECK(((pass.params[10] & train::kTrainNormSerial) != 0) == one_each);
                CHECK(pass.groups[0] == (one_each ? (sets + 63) / 64 : sets));
                ++(pass.kernel == "train_norm_fwd" ? fwd : bwd);
            }
            CHECK(fwd == 3);
            CHECK(bwd == 3);
        }
    // The mlp's norms run through the same planner: its forward's words and grid for the same layout.
    train::TrainConfig m;
    m.norm = train::TrainNorm::Layer;
    train::validate_train_config(m);
    const train::TrainProgram mp = train::plan_mlp_training(m);
    const auto it = std::find_if(mp.passes.begin(), mp.passes.end(),
                                 [](const train::TrainPass& t) { return t.kernel == "train_norm_fwd"; });
    REQUIRE(it != mp.passes.end());
    CHECK((it->params[10] & train::kTrainNormSerial) != 0);  // 32 sets of 32 features
    CHECK(it->groups == std::array<std::uint32_t, 3>{1, 1, 1});
}

TEST_CASE("the mlp's step: fused passes, at most 8 storage buffers a pass", "[train][conv]") {
    // 4 layers: gather, 4 Linear+activation (or Linear, then norm+activation), the head's Linear with the loss
    // (which advances the step counter; train_head_loss); backward: the head's dX and dW (+SGD), each layer's
    // norm ∂x and ∂γ (+SGD), dW (+SGD) and, past the first, dX (with f'). No train_sgd, train_act or train_step
    // pass remains.
    train::TrainConfig c;
    c.depth = 4;
    c.width = 32;
    c.batch = 32;
    for (train::TrainNorm norm : {train::TrainNorm::None, train::TrainNorm::Batch, train::TrainNorm::Rms}) {
        c.norm = norm;
        train::validate_train_config(c);
        const train::TrainProgram p = train::plan_mlp_training(c);
        const std::size_t per_norm = norm == train::TrainNorm::None ? 0 : 3;
        const std::size_t dx_in_norm = norm == train::TrainNorm::Rms ? 3 : 0;  // train_norm_linear_dx, layers 1–3
        INFO(train::train_norm_name(norm));
        CHECK(p.passes.size() == 1 + 4 + 1 + 2 + 4 * (1 + per_norm) + 3 - dx_in_norm);
        CHECK(std::count_if(p.passes.begin(), p.passes.end(),
                            [](const train::TrainPass& pass) { return pass.kernel == "train_head_loss"; }) == 1);
        CHECK(std::count_if(p.eval_passes.begin(), p.eval_passes.end(), [](const train::TrainPass& pass) {
                  return pass.kernel == "train_loss";  // the evaluation keeps its head Linear (the grid's logits)
              }) == 1);
        for (const auto& pass : p.passes) {
            CHECK(pass.buffers.size() <= 8);
            CHECK(pass.kernel != "train_sgd");
            CHECK(pass.kernel != "train_act");
            // The Linear kernels: an invocation per 4 × 4 block, so batch 32 × 32 features is one workgroup
            // (∂W with its bias column: 8 × 9 blocks, two).
            if (pass.kernel == "train_linear" || pass.kernel == "train_linear_dx")
                CHECK(pass.groups == std::array<std::uint32_t, 3>{1, 1, 1});
            if (pass.kernel == "train_linear_dw") CHECK(pass.groups[0] <= 2);
        }
        CHECK(train::train_linear_groups(32, 32)[0] == 1);   // 8 × 8 blocks
        CHECK(train::train_linear_groups(32, 33)[0] == 2);   // 8 × 9 blocks
        CHECK(train::train_linear_groups(100, 32)[0] == 4);  // 25 × 8 blocks
        // Each trained tensor's momentum buffer is bound by exactly one pass: its gradient's.
        for (const auto& t : train::init_mlp_params(c)) {
            if (!t.trained) continue;
            const int m = p.find(t.name + ".momentum_buffer");
            REQUIRE(m >= 0);
            CHECK(std::count_if(p.passes.begin(), p.passes.end(), [&](const train::TrainPass& pass) {
                      return std::count(pass.buffers.begin(), pass.buffers.end(), m) == 1;
                  }) == 1);
        }
    }
    // Adam: the optimizer's own passes after the backward (its state would take a fused pass past 8 buffers).
    c.norm = train::TrainNorm::Layer;
    c.optimizer = train::TrainOptimizer::Adam;
    const train::TrainProgram adam = train::plan_mlp_training(c);
    CHECK(std::count_if(adam.passes.begin(), adam.passes.end(),
                        [](const train::TrainPass& pass) { return pass.kernel == "train_adam"; }) == 18);
    for (const auto& pass : adam.passes) CHECK(pass.buffers.size() <= 8);
}

TEST_CASE("the mlp's row norms take their Linear into their passes", "[train][conv]") {
    // 4 layers of 32, batch 32. A row norm before its activation takes the Linear before it into its passes: its
    // backward the Linear's dX past the first layer (train_norm_linear_dx, 8 buffers: 27 → 24), and on a device that
    // binds 9 storage buffers its forward the Linear (train_linear_norm) in the step and the evaluation (24 → 20, 10 →
    // 6). Batch and `after` keep two passes each. With 9, a Linear's dX and dW are one pass (train_linear_bwd): the
    // head's (20 → 19) and, where the norm does not take its dX, layers 3..1's (27 → 23, after 31 → 27).
    train::TrainConfig c;
    c.depth = 4;
    c.width = 32;
    c.batch = 32;
    train::TrainPlanOptions nine;
    nine.max_storage_buffers = 9;
    for (train::TrainNorm norm :
         {train::TrainNorm::Batch, train::TrainNorm::Layer, train::TrainNorm::Group, train::TrainNorm::Rms})
        for (bool after : {false, true}) {
            c.norm = norm;
            c.norm_after = after;
            c.groups = norm == train::TrainNorm::Group ? 4 : 1;
            train::validate_train_config(c);
            const bool fused = norm != train::TrainNorm::Batch && !after;
            INFO(train::train_norm_name(norm) << (after ? " after" : " before"));
            const train::TrainProgram p = train::plan_mlp_training(c, nine);
            const std::size_t two = after ? 31 : 27;  // after: each layer's backward also has train_act
            CHECK(p.passes.size() == (fused ? 19u : two - 4));
            CHECK(p.eval_passes.size() == (fused ? 6u : 10u));
            std::map<std::string, int> seen;
            for (std::size_t i = 0; i < p.passes.size(); ++i) {
                const auto& pass = p.passes[i];
                const bool nine_buffers = pass.kernel == "train_linear_norm" || pass.kernel == "train_linear_bwd";
                CHECK(pass.buffers.size() <= (nine_buffers ? 9u : 8u));
                ++seen[pass.kernel];
                if (pass.kernel != "train_linear_norm" && pass.kernel != "train_norm_linear_dx") continue;
                CHECK(pass.params.size() == 15);
                CHECK(pass.groups == std::array<std::uint32_t, 3>{1, 1, 1});  // 8 invocations of 4 samples
                if (pass.kernel != "train_norm_linear_dx") continue;
                // γ's SGD step (train_norm_pgrad) and W's (train_linear_dw) come after the pass that reads them.
                REQUIRE(i + 2 < p.passes.size());
                CHECK(p.passes[i + 1].kernel == "train_norm_pgrad");
                CHECK(p.passes[i + 2].kernel == "train_linear_dw");
                CHECK(p.passes[i + 2].buffers[4] == pass.buffers[5]);  // the same W
            }
            CHECK(seen["train_linear_norm"] == (fused ? 4 : 0));
            CHECK(seen["train_norm_linear_dx"] == (fused ? 3 : 0));
            CHECK(seen["train_norm_bwd"] == (fused ? 1 : 4));
            // 8 storage buffers (the default): the forward in two passes, the backward still fused.
            CHECK(plan_mlp_training(c).passes.size() == (fused ? 24u : two));
        }
}

TEST_CASE("the mlp's batch norm takes its ∂γ and ∂β into its ∂x pass where 10 storage buffers bind", "[train][conv]") {
    // 4 layers of 32, batch 32: BatchNorm's backward is one pass a layer (train_norm_bwd_params: 27 → 23, after
    // 31 → 27) with one invocation per channel on a device that binds 10; with 9, or a workgroup per set, two. From 9
    // on, the head's and layers 3..1's dX and dW are one pass each (train_linear_bwd: 4 fewer).
    train::TrainConfig c;
    c.depth = 4;
    c.width = 32;
    c.batch = 32;
    c.norm = train::TrainNorm::Batch;
    for (bool after : {false, true})
        for (train::TrainOptimizer opt : {train::TrainOptimizer::Sgd, train::TrainOptimizer::Adam}) {
            c.norm_after = after;
            c.optimizer = opt;
            train::validate_train_config(c);
            INFO((after ? "after " : "before ") << train::train_optimizer_name(opt));
            train::TrainPlanOptions o;
            o.max_storage_buffers = 10;
            const train::TrainProgram p = train::plan_mlp_training(c, o);
            const std::size_t adam = opt == train::TrainOptimizer::Adam ? 19 : 0;  // bias correction + 18 tensors
            CHECK(p.passes.size() == (after ? 23u : 19u) + adam);
            int fused = 0;
            for (const auto& pass : p.passes) {
                CHECK(pass.kernel != "train_norm_pgrad");
                CHECK(pass.kernel != "train_norm_bwd");
                if (pass.kernel != "train_norm_bwd_params") continue;
                ++fused;
                CHECK(pass.buffers.size() == 10);
                CHECK(pass.params.size() == 14);
                CHECK(pass.params[11] == (opt == train::TrainOptimizer::Sgd ? 1u : 0u));
                CHECK(pass.groups == std::array<std::uint32_t, 3>{1, 1, 1});  // 32 channels, 64 a workgroup
            }
            CHECK(fused == 4);
            o.max_storage_buffers = 9;
            CHECK(train::plan_mlp_training(c, o).passes.size() == (after ? 27u : 23u) + adam);
            o.max_storage_buffers = 10;
            o.serial_norm_members = 0;
            CHECK(train::plan_mlp_training(c, o).passes.size() == (after ? 27u : 23u) + adam);
            o.max_storage_buffers = 8;
            CHECK(train::plan_mlp_training(c, o).passes.size() == (after ? 31u : 27u) + adam);
        }
}
