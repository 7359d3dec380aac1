// The cnn's training step and evaluation as a TrainProgram (conv_model_plan.hpp).
#include "normlab/train/conv_model_plan.hpp"

#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_plan.hpp"
#include "normlab/train/pool_plan.hpp"
#include "normlab/train/texture_data.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "normlab/train/train_norm_plan.hpp"
#include "normlab/train/train_plan.hpp"

namespace normlab::train {
namespace {

using Role = TrainBufferRole;
using Kind = TrainBufferKind;
using u32 = std::uint32_t;

struct LayerBufs {
    ConvShape s;
    bool pool = false;
    int in = -1, xhat = -1, stats = -1, act_out = -1, out = -1;
};

struct CnnPlanner {
    const TrainConfig& c;
    TrainPlanOptions o;
    TrainProgram p;
    int dummy = -1, step = -1;

    int buf(const std::string& name, std::uint64_t n, Role r = Role::Scratch, Kind k = Kind::F32) {
        const int i = p.find(name);
        return i >= 0 ? i : p.add_buffer(name, n, r, k);
    }
    u32 channels() const { return static_cast<u32>(c.channels); }

    // LayerNorm([C, H, W]) and RMS scale each of a sample's C·H·W elements: their layout is the mlp's on
    // C·H·W features; the others keep C channels of H·W.
    TrainNormLayout layout(u32 n, u32 hw) const {
        if (c.norm == TrainNorm::Layer || c.norm == TrainNorm::Rms)
            return train_norm_layout(c.norm, n, channels() * hw, 1, static_cast<u32>(c.groups));
        return train_norm_layout(c.norm, n, channels(), hw, static_cast<u32>(c.groups));
    }
    // The norm of a layer of shape s.
    TrainNormPlan norm_plan(const ConvShape& s) const {
        return {c, layout(static_cast<u32>(s.n), static_cast<u32>(s.h * s.w)), o};
    }
    // Moves the passes appended to p.passes since `from` into `out` (the evaluation's list).
    void take(std::vector<TrainPass>& out, std::size_t from) {
        if (&out == &p.passes) return;
        out.insert(out.end(), p.passes.begin() + static_cast<std::ptrdiff_t>(from), p.passes.end());
        p.passes.resize(from);
    }

    // The norm's forward; with `act` (the activation after it, fused: train_plan.hpp's act word) its output is
    // the activation's, which the activation's backward reads.
    int norm_forward(std::vector<TrainPass>& out, const std::string& l, const std::string& q, LayerBufs& b, int src,
                     bool eval, u32 act = 0) {
        const u32 count = static_cast<u32>(b.s.y_size());
        const TrainNormPlan norm = norm_plan(b.s);
        const int dst = act ? (b.act_out = buf(l + "act", count)) : buf(l + "normed", count);
        b.xhat = buf(l + "xhat", count);
        b.stats = buf(l + "stats", 2ull * norm.layout().sets);
        norm.forward(out, eval, src, dst, train_norm_buffers(p, q, b.xhat, b.stats, dummy), act);
        return dst;
    }
    int act_forward(std::vector<TrainPass>& out, const std::string& l, LayerBufs& b, int src) {
        const u32 count = static_cast<u32>(b.s.y_size());
        b.act_out = buf(l + "act", count);
        out.push_back({"train_act",
                       {count, static_cast<u32>(c.activation), 0},
                       train_groups_for(count),
                       {src, b.act_out, dummy}});
        return b.act_out;
    }

    // The forward of the cnn on n images of `x` into `out`; returns the layers and sets the features
    // (n × C after the global pool) and the logits.
    std::vector<LayerBufs> forward(std::vector<TrainPass>& out, const std::string& pre, u32 n, int x, int& feat,
                                   int& logits, bool eval) {
        std::vector<LayerBufs> layers;
        int in = x;
        const bool normed = c.norm != TrainNorm::None;
        for (const CnnLayerShape& shape : cnn_layer_shapes(c.depth, c.channels, static_cast<int>(n))) {
            const auto i = std::to_string(layers.size());
            const std::string l = pre + "layers." + i + ".", q = "layers." + i + ".";
            LayerBufs b{shape.conv, shape.pool_after, in};
            const int z = buf(l + "z", b.s.y_size());
            std::size_t from = p.passes.size();
            plan_conv3x3_forward(p, b.s, in, p.find(q + "conv.weight"), p.find(q + "conv.bias"), z);
            take(out, from);
            int cur = z;
            if (normed && !c.norm_after) {  // Conv → Norm → Act: the activation in the norm's pass
                cur = norm_forward(out, l, q, b, cur, eval, static_cast<u32>(c.activation) + 1);
            } else {
                cur = act_forward(out, l, b, cur);
                if (normed) cur = norm_forward(out, l, q, b, cur, eval);
            }
            if (b.pool) {
                const int pooled = buf(l + "pooled", b.s.y_size() / 4);
                from = p.passes.size();
                plan_avgpool2_forward(p, PoolShape{b.s.n, b.s.cout, b.s.h, b.s.w}, cur, pooled);
                take(out, from);
                cur = pooled;
            }
            b.out = cur;
            layers.push_back(b);
            in = cur;
        }
        const int side = layers.back().pool ? layers.back().s.h / 2 : layers.back().s.h;
        feat = buf(pre + "features", static_cast<std::uint64_t>(n) * channels());
        std::size_t from = p.passes.size();
        plan_global_avgpool_forward(p, PoolShape{static_cast<int>(n), c.channels, side, side}, in, feat);
        take(out, from);
        const auto k = static_cast<u32>(c.classes);
        logits = buf(pre + "logits", static_cast<std::uint64_t>(n) * k);
        out.push_back({"train_linear",
                       {n, channels(), k, 0},
                       train_groups_for(static_cast<std::uint64_t>(n) * k),
                       {feat, p.find("head.weight"), p.find("head.bias"), logits, dummy}});
        return layers;
    }

    void backward_norm(const std::string& q, const LayerBufs& b, int dy, int dx) {
        norm_plan(b.s).backward(p.passes, dy, dx, train_norm_buffers(p, q, b.xhat, b.stats, dummy, fused_sgd(c)));
    }
    void backward_act(const LayerBufs& b, int dy, int dx) {
        const u32 count = static_cast<u32>(b.s.y_size());
        p.passes.push_back(
            {"train_act", {count, static_cast<u32>(c.activation), 1}, train_groups_for(count), {b.act_out, dy, dx}});
    }

    // One layer's backward from dy (the gradient of its output, after its pool) to its parameters'
    // gradients and, past the first layer, the gradient of its input; returns that (or −1).
    int backward_layer(int i, const LayerBufs& b, int dy) {
        const std::string q = "layers." + std::to_string(i) + ".";
        const std::uint64_t count = b.s.y_size();
        if (b.pool) {
            const int up = buf("grad." + q + "unpooled", count);
            plan_avgpool2_backward(p, PoolShape{b.s.n, b.s.cout, b.s.h, b.s.w}, dy, up);
            dy = up;
        }
        const int g1 = buf("grad." + q + "mid", count), dz = buf("grad." + q + "z", count);
        if (c.norm == TrainNorm::None) {
            backward_act(b, dy, dz);
        } else if (c.norm_after) {
            backward_norm(q, b, dy, g1);
            backward_act(b, g1, dz);
        } else {
            backward_act(b, dy, g1);
            backward_norm(q, b, g1, dz);
        }
        plan_conv3x3_grad_params(p, b.s, b.in, dz, p.find("grad." + q + "conv.weight"),
                                 p.find("grad." + q + "conv.bias"));
        if (i == 0) return -1;
        const int dprev = buf("grad.layers." + std::to_string(i - 1) + ".out", b.s.x_size());
        plan_conv3x3_backward_input(p, b.s, dz, p.find(q + "conv.weight"), dprev);
        return dprev;
    }

    void backward(const std::vector<LayerBufs>& layers, u32 n, int feat, int dlogits) {
        const u32 k = static_cast<u32>(c.classes), ch = channels();
        const int dfeat = buf("grad.features", static_cast<std::uint64_t>(n) * ch);
        append_linear_backward(p, c, {n, ch, k, 0, dlogits, feat, dfeat, dummy, dummy, "head."});
        const LayerBufs& last = layers.back();
        const int side = last.pool ? last.s.h / 2 : last.s.h;
        const PoolShape gs{static_cast<int>(n), c.channels, side, side};
        int dy = buf("grad.layers." + std::to_string(layers.size() - 1) + ".out", gs.size());
        plan_global_avgpool_backward(p, gs, dfeat, dy);
        for (int i = static_cast<int>(layers.size()) - 1; i >= 0; --i) dy = backward_layer(i, layers[i], dy);
    }
};

}  // namespace

TrainProgram plan_cnn_training(const TrainConfig& c, const TrainPlanOptions& o) {
    CnnPlanner pl{c, o, {}};
    auto& p = pl.p;
    const u32 b = c.batch, nv = validation_samples(c), k = c.classes;
    const auto params = init_cnn_params(c);
    const TrainIo io = begin_training_program(p, c, kTexturePixels, params);
    pl.step = io.step;
    pl.dummy = io.unused;

    // The step: gather (above), forward, loss (which advances the step counter), backward (SGD's step
    // fused into the head's and the norms' gradient passes), the optimizer's other passes.
    int feat = -1, logits = -1;
    const auto layers = pl.forward(p.passes, "", b, io.x, feat, logits, false);
    const int dlogits = p.add_buffer("grad.logits", std::uint64_t{b} * k);
    p.passes.push_back({"train_loss", {b, k, 0}, {1, 1, 1}, {logits, io.labels, dlogits, io.log, pl.step}});
    pl.backward(layers, b, feat, dlogits);
    append_optimizer_passes(p, c, params);

    // The evaluation: the validation set in eval mode.
    int vfeat = -1, vlogits = -1;
    pl.forward(p.eval_passes, "eval.", nv, io.x_val, vfeat, vlogits, true);
    p.eval_passes.push_back({"train_loss", {nv, k, 1}, {1, 1, 1}, {vlogits, io.y_val, pl.dummy, io.val_log, pl.step}});
    return p;
}

}  // namespace normlab::train
