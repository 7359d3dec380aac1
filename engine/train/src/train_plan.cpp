// The mlp's training step and evaluation as a TrainProgram (train_plan.hpp).
#include "normlab/train/train_plan.hpp"

#include "normlab/train/conv_plan.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "normlab/train/train_norm_plan.hpp"
#include "normlab/train/train_params.hpp"

#include <algorithm>

namespace normlab::train {
namespace {

std::uint64_t linear_blocks(std::uint64_t rows, std::uint64_t cols) { return ((rows + 3) / 4) * ((cols + 3) / 4); }

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

    // One hidden layer's buffers: its input, the norm's saved x̂ and statistics, the activation's output
    // (its backward's operand) and the layer's output.
    struct LayerBufs {
        int in = -1, xhat = -1, stats = -1, act_out = -1, out = -1;
    };

    // The norm of a layer of n samples (the mlp's W features: one element per channel).
    TrainNormPlan norm_plan(u32 n) const {
        return {c, train_norm_layout(c.norm, n, c.width, 1, static_cast<u32>(c.groups)), o};
    }
    // The activation word of the fused kernels (train_plan.hpp's act).
    u32 act() const { return act_kind(c.activation) + 1; }
    // Whether a layer's output is its activation's (no norm after it): the next Linear's dX applies f'.
    bool ends_in_act() const { return c.norm == TrainNorm::None || !c.norm_after; }

    // Forward of the whole mlp on n samples of `x` (and `labels`) into pass list `out`; returns
    // the layers' buffers (the last one's `out` feeds the head) and the logits. The activation runs in
    // the pass before it: Linear's (no norm, or the norm after the activation) or the norm's. head: the head's
    // Linear as a pass of its own (else the step's loss pass computes it, train_head_loss).
    std::vector<LayerBufs> forward(std::vector<TrainPass>& out, const std::string& pre, u32 n, int x, int& logits,
                                   bool eval, bool head) {
        std::vector<LayerBufs> layers;
        int in = x;
        const u32 w = c.width;
        const bool normed = c.norm != TrainNorm::None;
        for (int i = 0; i < c.depth; ++i) {
            const std::string l = pre + "layers." + std::to_string(i) + ".";
            const std::string q = "layers." + std::to_string(i) + ".";
            LayerBufs b{};
            b.in = in;
            // Linear's output: the activation's where it is fused (its pre-activation z kept beside it), else z.
            const bool linear_act = !normed || c.norm_after;
            const int z = buf(l + "z", n * w), y = linear_act ? (b.act_out = buf(l + "act", n * w)) : z;
            const u32 fin = mlp_in_features(c, i);
            if (normed && !c.norm_after && norm_plan(n).fuses_linear(o.max_storage_buffers)) {
                b.out = b.act_out = buf(l + "act", n * w);
                b.xhat = buf(l + "xhat", n * w);
                b.stats = buf(l + "stats", 2 * norm_plan(n).layout().sets);
                norm_plan(n).linear_forward(out, {n, fin, w},
                                            {in, p.find(q + "linear.weight"), p.find(q + "linear.bias")}, z, b.out,
                                            train_norm_buffers(p, q, b.xhat, b.stats, dummy), act());
                layers.push_back(b);
                in = b.out;
                continue;
            }
            out.push_back({"train_linear",
                           {n, fin, w, linear_act ? act() : 0},
                           train_linear_groups(n, w),
                           {in, p.find(q + "linear.weight"), p.find(q + "linear.bias"), y, linear_act ? z : dummy}});
            b.out = y;
            if (normed) {
                const TrainNormPlan norm = norm_plan(n);
                b.out = c.norm_after ? buf(l + "normed", n * w) : (b.act_out = buf(l + "act", n * w));
                b.xhat = buf(l + "xhat", n * w);
                b.stats = buf(l + "stats", 2 * norm.layout().sets);
                norm.forward(out, eval, y, b.out, train_norm_buffers(p, q, b.xhat, b.stats, dummy),
                             c.norm_after ? 0 : act());
            }
            layers.push_back(b);
            in = b.out;
        }
        logits = buf(pre + "logits", n * static_cast<u32>(c.classes));
        if (!head) return layers;
        out.push_back({"train_linear",
                       {n, w, static_cast<u32>(c.classes), 0},
                       train_linear_groups(n, c.classes),
                       {in, p.find("head.weight"), p.find("head.bias"), logits, dummy}});
        return layers;
    }

    // Backward from dlogits: each Linear's dX applies f' of the activation before it where that activation
    // is its input (ends_in_act), so a layer's gradient arrives at its norm (or its Linear) directly.
    // The head's backward in the loss pass `loss` (train_head_loss's words and buffers): train_head_step's words
    // (Out, the activation whose output the head's input is, SGD's) and buffers (dX, dW, db, the momentum buffers).
    void head_backward(TrainPass& loss, u32 n) {
        const std::string d = "grad.layers." + std::to_string(c.depth - 1) + ".out";
        const bool sgd = fused_sgd(c);
        loss.kernel = "train_head_step";
        loss.params.push_back(static_cast<u32>(c.classes));
        loss.params.push_back(ends_in_act() ? act() : 0);
        for (u32 v : sgd_words(c)) loss.params.push_back(v);
        for (int i :
             {buf(d, n * c.width), p.find("grad.head.weight"), p.find("grad.head.bias"),
              sgd ? sgd_momentum_buffer(p, "head.weight") : dummy, sgd ? sgd_momentum_buffer(p, "head.bias") : dummy})
            loss.buffers.push_back(i);
    }

    // A norm's ∂γ, ∂β pass followed by the Linear-before-it's ∂W pass (train_norm_pgrad, train_linear_dw, each with
    // its SGD step) become one (train_norm_pgrad_dw) where both fit a workgroup and the device binds 16.
    void fuse_pgrad_dw(std::vector<TrainPass>& passes) const {
        const std::size_t k = passes.size();
        if (k < 2 || o.max_storage_buffers < 16) return;
        TrainPass &g = passes[k - 2], &w = passes[k - 1];
        if (g.kernel != "train_norm_pgrad" || w.kernel != "train_linear_dw") return;
        if (g.params[0] > kTrainWorkgroupBlocks || linear_blocks(w.params[2], w.params[1] + 1) > kTrainWorkgroupBlocks)
            return;
        if (!std::equal(g.params.begin() + 6, g.params.end(), w.params.begin() + 3)) return;  // the same SGD words
        g.kernel = "train_norm_pgrad_dw";
        g.params.insert(g.params.end(), w.params.begin(), w.params.begin() + 3);
        g.buffers.insert(g.buffers.end(), w.buffers.begin(), w.buffers.end());
        g.groups = {1, 1, 1};
        passes.pop_back();
    }

    // head_done: the head's backward ran in the loss pass (train_head_step), its dX in dy's buffer.
    void backward(const std::vector<LayerBufs>& layers, u32 n, int dlogits, bool head_done) {
        const u32 w = c.width, k = c.classes;
        const bool fused_act = ends_in_act();
        auto linear = [&](const std::string& prefix, u32 in, u32 out, int dy, int x, int dx, const LayerBufs* prev) {
            append_linear_backward(p, c,
                                   {n, in, out, prev && fused_act ? act() : 0, dy, x, dx,
                                    prev && fused_act ? prev->act_out : dummy, dummy, prefix, o.max_storage_buffers});
            fuse_pgrad_dw(p.passes);
        };
        int dy = buf("grad.layers." + std::to_string(c.depth - 1) + ".out", n * w);
        if (!head_done) linear("head.", w, k, dlogits, layers.back().out, dy, &layers.back());
        for (int i = c.depth - 1; i >= 0; --i) {
            const std::string q = "layers." + std::to_string(i) + ".";
            const auto& b = layers[i];
            const int g1 = buf("grad." + q + "mid", n * w), g2 = buf("grad." + q + "z", n * w);
            int dz = dy;
            const int dprev = i > 0 ? buf("grad.layers." + std::to_string(i - 1) + ".out", n * w) : -1;
            if (c.norm != TrainNorm::None) {
                const auto nb = train_norm_buffers(p, q, b.xhat, b.stats, dummy, fused_sgd(c));
                const TrainNormPlan norm = norm_plan(n);
                if (i > 0 && !c.norm_after && norm.row_fusable()) {  // the Linear's dX in the norm's pass
                    const u32 fin = mlp_in_features(c, i);           // the previous layer ends in its activation
                    const TrainLinearDx ldx{
                        n, fin, w, act(), p.find(q + "linear.weight"), dprev, layers[i - 1].act_out};
                    norm.backward(p.passes, dy, g2, nb, &ldx);
                    linear(q + "linear.", fin, w, g2, b.in, -1, nullptr);
                    dy = dprev;
                    continue;
                }
                norm.backward(p.passes, dy, c.norm_after ? g1 : g2, nb);
                dz = g2;
                if (c.norm_after)
                    p.passes.push_back({"train_act",
                                        {n * w, act_kind(c.activation), 1},
                                        train_groups_for(n * w),
                                        {b.act_out, g1, g2}});
            }
            linear(q + "linear.", mlp_in_features(c, i), w, dz, b.in, dprev, i > 0 ? &layers[i - 1] : nullptr);
            dy = dprev;
        }
    }
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
        if (!t.trained || p.find(t.name + ".momentum_buffer") >= 0) continue;
        const int pi = p.find(t.name), gi = p.find("grad." + t.name);
        const u32 n = static_cast<u32>(t.elements());
        if (c.optimizer == TrainOptimizer::Sgd) {
            const int m = sgd_momentum_buffer(p, t.name);
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

std::array<std::uint32_t, 3> train_linear_groups(std::uint64_t rows, std::uint64_t cols) {
    return train_groups_for(linear_blocks(rows, cols));
}

bool train_linear_fits_workgroup(std::uint64_t n, std::uint64_t in, std::uint64_t out) {
    return linear_blocks(n, in) <= kTrainWorkgroupBlocks && linear_blocks(out, in + 1) <= kTrainWorkgroupBlocks;
}

bool fused_sgd(const TrainConfig& c) { return c.optimizer == TrainOptimizer::Sgd; }

std::vector<std::uint32_t> sgd_words(const TrainConfig& c) {
    if (!fused_sgd(c)) return {0, 0, 0};
    return {1, param_f32(static_cast<float>(c.lr)), param_f32(static_cast<float>(c.momentum))};
}

int sgd_momentum_buffer(TrainProgram& p, const std::string& name) {
    const int i = p.find(name + ".momentum_buffer");
    return i >= 0 ? i : p.add_buffer(name + ".momentum_buffer", p.buffers.at(p.find(name)).elements, Role::State);
}

void append_linear_backward(TrainProgram& p, const TrainConfig& c, const LinearBackward& l) {
    const int weight = p.find(l.prefix + "weight"), bias = p.find(l.prefix + "bias");
    const bool sgd = fused_sgd(c);
    if (l.dx >= 0 && l.max_storage_buffers >= 9 && (l.act == 0 || l.act_out == l.x) &&
        train_linear_fits_workgroup(l.n, l.in, l.out)) {
        std::vector<u32> words{l.n, l.in, l.out, l.act};
        for (u32 v : sgd_words(c)) words.push_back(v);
        p.passes.push_back(
            {"train_linear_bwd",
             words,
             {1, 1, 1},
             {l.dy, l.x, weight, bias, l.dx, p.find("grad." + l.prefix + "weight"), p.find("grad." + l.prefix + "bias"),
              sgd ? sgd_momentum_buffer(p, l.prefix + "weight") : l.unused,
              sgd ? sgd_momentum_buffer(p, l.prefix + "bias") : l.unused}});
        return;
    }
    if (l.dx >= 0)
        p.passes.push_back({"train_linear_dx",
                            {l.n, l.in, l.out, l.act},
                            train_linear_groups(l.n, l.in),
                            {l.dy, weight, l.dx, l.act_out}});
    std::vector<u32> words{l.n, l.in, l.out};
    for (u32 v : sgd_words(c)) words.push_back(v);
    p.passes.push_back(
        {"train_linear_dw",
         words,
         train_linear_groups(l.out, std::uint64_t{l.in} + 1),
         {l.dy, l.x, p.find("grad." + l.prefix + "weight"), p.find("grad." + l.prefix + "bias"),
          sgd ? weight : l.unused, sgd ? bias : l.unused, sgd ? sgd_momentum_buffer(p, l.prefix + "weight") : l.unused,
          sgd ? sgd_momentum_buffer(p, l.prefix + "bias") : l.unused}});
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

    // The step: gather (above), forward, the head's Linear with the loss (which advances the step counter),
    // backward with SGD's update fused (else the optimizer's passes after it).
    int logits = -1;
    const auto layers = pl.forward(p.passes, "", b, io.x, logits, false, false);
    const int dlogits = p.add_buffer("grad.logits", static_cast<std::uint64_t>(b) * k);
    const bool head_step = o.max_storage_buffers >= kTrainHeadStepBuffers;
    TrainPass loss{
        "train_head_loss",
        {b, k, 0, static_cast<u32>(c.width)},
        {1, 1, 1},
        {layers.back().out, p.find("head.weight"), p.find("head.bias"), logits, io.labels, dlogits, io.log, pl.step}};
    if (head_step) pl.head_backward(loss, b);
    p.passes.push_back(loss);
    pl.backward(layers, b, dlogits, head_step);
    append_optimizer_passes(p, c, params);

    // The evaluation: the validation set in eval mode (and the grid after it: its logits only).
    int vlogits = -1;
    pl.forward(p.eval_passes, "eval.", nv + o.eval_grid, io.x_val, vlogits, true, true);
    p.eval_passes.push_back({"train_loss", {nv, k, 1}, {1, 1, 1}, {vlogits, io.y_val, pl.dummy, io.val_log, pl.step}});
    return p;
}

}  // namespace normlab::train
