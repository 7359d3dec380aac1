// The mlp's training step and evaluation as a TrainProgram (train_plan.hpp).
#include "normlab/train/train_plan.hpp"

#include "normlab/train/conv_plan.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "normlab/train/train_norm_plan.hpp"
#include "normlab/train/train_params.hpp"

namespace normlab::train {
namespace {

using Role = TrainBufferRole;
using Kind = TrainBufferKind;
using u32 = std::uint32_t;

u32 act_kind(TrainActivation a) { return static_cast<u32>(a); }

struct Planner {
    const TrainConfig& c;
    TrainPlanOptions o;
    TrainProgram p;
    int dummy = -1, step = -1;

    int buf(const std::string& name, std::uint64_t n, Role r = Role::Scratch, Kind k = Kind::F32) {
        const int i = p.find(name);
        return i >= 0 ? i : p.add_buffer(name, n, r, k);
    }

    // One hidden layer's activations of a batch of n, in buffers prefixed by `pre`.
    struct LayerBufs {
        int in, z, norm_in, norm_out, xhat, stats, act_in, act_out, out;
    };

    // The norm of a layer of n samples (the mlp's W features: one element per channel).
    TrainNormPlan norm_plan(u32 n) const {
        return {c, train_norm_layout(c.norm, n, c.width, 1, static_cast<u32>(c.groups)), o};
    }

    // Forward of the whole mlp on n samples of `x` (and `labels`) into pass list `out`; returns
    // the layers' buffers (the last one's `out` feeds the head) and the logits.
    std::vector<LayerBufs> forward(std::vector<TrainPass>& out, const std::string& pre, u32 n, int x, int& logits,
                                   bool eval) {
        std::vector<LayerBufs> layers;
        int in = x;
        const u32 w = c.width;
        const bool normed = c.norm != TrainNorm::None;
        for (int i = 0; i < c.depth; ++i) {
            const std::string l = pre + "layers." + std::to_string(i) + ".";
            const std::string q = "layers." + std::to_string(i) + ".";
            LayerBufs b{};
            b.in = in;
            b.z = buf(l + "z", n * w);
            const u32 fin = mlp_in_features(c, i);
            out.push_back({"train_linear",
                           {n, fin, w},
                           train_groups_for(n * w),
                           {in, p.find(q + "linear.weight"), p.find(q + "linear.bias"), b.z}});
            int cur = b.z;
            auto add_norm = [&](int src) {
                const TrainNormPlan norm = norm_plan(n);
                b.norm_in = src;
                b.norm_out = buf(l + "normed", n * w);
                b.xhat = buf(l + "xhat", n * w);
                b.stats = buf(l + "stats", 2 * norm.layout().sets);
                norm.forward(out, eval, src, b.norm_out, train_norm_buffers(p, q, b.xhat, b.stats, dummy));
                return b.norm_out;
            };
            auto add_act = [&](int src) {
                b.act_in = src;
                b.act_out = buf(l + "act", n * w);
                out.push_back({"train_act",
                               {n * w, act_kind(c.activation), 0},
                               train_groups_for(n * w),
                               {src, b.act_out, dummy}});
                return b.act_out;
            };
            if (normed && !c.norm_after) cur = add_norm(cur);
            cur = add_act(cur);
            if (normed && c.norm_after) cur = add_norm(cur);
            b.out = cur;
            layers.push_back(b);
            in = cur;
        }
        logits = buf(pre + "logits", n * static_cast<u32>(c.classes));
        out.push_back({"train_linear",
                       {n, w, static_cast<u32>(c.classes)},
                       train_groups_for(n * c.classes),
                       {in, p.find("head.weight"), p.find("head.bias"), logits}});
        return layers;
    }

    void backward_norm(const std::string& q, const LayerBufs& b, int dy, int dx, u32 n) {
        norm_plan(n).backward(p.passes, dy, dx, train_norm_buffers(p, q, b.xhat, b.stats, dummy));
    }

    void backward_act(const LayerBufs& b, int dy, int dx, u32 n) {
        p.passes.push_back({"train_act",
                            {n * static_cast<u32>(c.width), act_kind(c.activation), 1},
                            train_groups_for(n * c.width),
                            {b.act_out, dy, dx}});
    }

    void backward(const std::vector<LayerBufs>& layers, u32 n, int dlogits) {
        const u32 w = c.width, k = c.classes;
        int dy = dlogits;
        const int last = layers.back().out;
        const int dh = buf("grad.layers." + std::to_string(c.depth - 1) + ".out", n * w);
        p.passes.push_back({"train_linear_dw",
                            {n, w, k},
                            train_groups_for(k * (w + 1)),
                            {dy, last, p.find("grad.head.weight"), p.find("grad.head.bias")}});
        p.passes.push_back({"train_linear_dx", {n, w, k}, train_groups_for(n * w), {dy, p.find("head.weight"), dh}});
        dy = dh;
        for (int i = c.depth - 1; i >= 0; --i) {
            const std::string q = "layers." + std::to_string(i) + ".";
            const auto& b = layers[i];
            const int g1 = buf("grad." + q + "mid", n * w), g2 = buf("grad." + q + "z", n * w);
            int dz = g1;
            if (c.norm == TrainNorm::None) {
                backward_act(b, dy, g2, n);
                dz = g2;
            } else if (c.norm_after) {
                backward_norm(q, b, dy, g1, n);
                backward_act(b, g1, g2, n);
                dz = g2;
            } else {
                backward_act(b, dy, g1, n);
                backward_norm(q, b, g1, g2, n);
                dz = g2;
            }
            const u32 fin = mlp_in_features(c, i);
            p.passes.push_back(
                {"train_linear_dw",
                 {n, fin, w},
                 train_groups_for(w * (fin + 1)),
                 {dz, b.in, p.find("grad." + q + "linear.weight"), p.find("grad." + q + "linear.bias")}});
            if (i > 0) {
                const int dprev = buf("grad.layers." + std::to_string(i - 1) + ".out", n * w);
                p.passes.push_back({"train_linear_dx",
                                    {n, fin, w},
                                    train_groups_for(n * fin),
                                    {dz, p.find(q + "linear.weight"), dprev}});
                dy = dprev;
            }
        }
    }

    void update(const std::vector<TrainTensor>& params) { append_optimizer_passes(p, c, params); }
};

}  // namespace

void append_optimizer_passes(TrainProgram& p, const TrainConfig& c, const std::vector<TrainTensor>& params) {
    auto buf = [&](const std::string& name, std::uint64_t n) {
        const int i = p.find(name);
        return i >= 0 ? i : p.add_buffer(name, n, Role::State);
    };
    const auto f = [](double v) { return param_f32(static_cast<float>(v)); };
    int bias = -1;
    if (c.optimizer == TrainOptimizer::Adam) {
        bias = buf("adam.bias_correction", 2);
        p.passes.push_back({"train_adam_bias",
                            {f(kAdamBeta1), f(1 - kAdamBeta1), f(kAdamBeta2), f(1 - kAdamBeta2)},
                            {1, 1, 1},
                            {bias}});
    }
    for (const auto& t : params) {
        if (!t.trained) continue;
        const int pi = p.find(t.name), gi = p.find("grad." + t.name);
        const u32 n = static_cast<u32>(t.elements());
        if (c.optimizer == TrainOptimizer::Sgd) {
            const int m = buf(t.name + ".momentum_buffer", n);
            p.passes.push_back({"train_sgd", {n, f(c.lr), f(c.momentum)}, train_groups_for(n), {pi, gi, m}});
        } else {
            const int m = buf(t.name + ".exp_avg", n), v = buf(t.name + ".exp_avg_sq", n);
            p.passes.push_back(
                {"train_adam",
                 {n, f(c.lr), f(kAdamBeta1), f(1 - kAdamBeta1), f(kAdamBeta2), f(1 - kAdamBeta2), f(kAdamEps)},
                 train_groups_for(n),
                 {pi, gi, m, v, bias}});
        }
    }
}

TrainIo begin_training_program(TrainProgram& p, const TrainConfig& c, std::uint32_t features,
                               const std::vector<TrainTensor>& params, std::uint32_t eval_grid) {
    const u32 b = c.batch, nv = validation_samples(c);
    TrainIo io;
    const int xtr = p.add_buffer("x_train", std::uint64_t{features} * c.samples, Role::Data);
    const int ytr = p.add_buffer("y_train", c.samples, Role::Data, Kind::U32);
    io.x_val = p.add_buffer("x_val", std::uint64_t{features} * (nv + eval_grid), Role::Data);
    io.y_val = p.add_buffer("y_val", nv, Role::Data, Kind::U32);
    const int batches = p.add_buffer("batches", static_cast<std::uint64_t>(c.steps) * b, Role::Data, Kind::U32);
    io.step = p.add_buffer("step", 1, Role::State, Kind::U32);
    io.log = p.add_buffer("log", 2ull * c.steps, Role::Log);
    io.val_log = p.add_buffer("val_log", 2ull * c.steps, Role::Log);
    io.unused = p.add_buffer("unused", 1);
    for (const auto& t : params) p.add_buffer(t.name, t.elements(), Role::Param);
    for (const auto& t : params)
        if (t.trained) p.add_buffer("grad." + t.name, t.elements());
    io.x = p.add_buffer("x", std::uint64_t{features} * b);
    io.labels = p.add_buffer("labels", b, Role::Scratch, Kind::U32);
    p.passes.push_back(
        {"train_gather", {b, features}, train_groups_for(b), {xtr, ytr, batches, io.step, io.x, io.labels}});
    return io;
}

TrainProgram plan_mlp_training(const TrainConfig& c, const TrainPlanOptions& o) {
    Planner pl{c, o, {}};
    auto& p = pl.p;
    const u32 b = c.batch, nv = validation_samples(c), k = c.classes;
    const auto params = init_mlp_params(c);
    const TrainIo io = begin_training_program(p, c, 2, params, o.eval_grid);
    pl.step = io.step;
    pl.dummy = io.unused;

    // The step: gather (above), forward, loss, backward, update, advance.
    int logits = -1;
    const auto layers = pl.forward(p.passes, "", b, io.x, logits, false);
    const int dlogits = p.add_buffer("grad.logits", static_cast<std::uint64_t>(b) * k);
    p.passes.push_back({"train_loss", {b, k, 0}, {1, 1, 1}, {logits, io.labels, dlogits, io.log, pl.step}});
    pl.backward(layers, b, dlogits);
    pl.update(params);
    p.passes.push_back({"train_step", {}, {1, 1, 1}, {pl.step}});

    // The evaluation: the validation set in eval mode (and the grid after it: its logits only).
    int vlogits = -1;
    pl.forward(p.eval_passes, "eval.", nv + o.eval_grid, io.x_val, vlogits, true);
    p.eval_passes.push_back({"train_loss", {nv, k, 1}, {1, 1, 1}, {vlogits, io.y_val, pl.dummy, io.val_log, pl.step}});
    return p;
}

}  // namespace normlab::train
