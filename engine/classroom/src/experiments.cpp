#include "normlab/experiments.hpp"

#include "normlab/presets.hpp"

#include <algorithm>

namespace normlab {
namespace {

State preset_state(const std::string& preset, NormSpec spec) {
    State s;
    s.source.kind = TensorSource::Kind::Preset;
    s.source.preset = preset;
    s.spec = spec;
    return s;
}

NormSpec layer(std::vector<std::int64_t> ns = {}) {
    NormSpec s = default_spec(Method::Layer);
    s.normalized_shape = std::move(ns);
    return s;
}

NormSpec group(std::int64_t g) {
    NormSpec s = default_spec(Method::Group);
    s.groups = g;
    return s;
}

std::vector<Experiment> build() {
    std::vector<Experiment> out;
    {
        Experiment e;
        e.id = "seed003-in-vs-ln";
        e.title = {"Seed 003: InstanceNorm vs LayerNorm (1×2×2×2)", "种子 003：InstanceNorm 与 LayerNorm（1×2×2×2）"};
        e.explanation = {"Channels [[1,2],[3,4]] and [[5,6],[7,8]]: InstanceNorm gives μ = 2.5 and 6.5, σ² = 1.25 each; "
                         "LayerNorm over (C,H,W) gives one μ = 4.5, σ² = 5.25.",
                         "通道 [[1,2],[3,4]] 和 [[5,6],[7,8]]：InstanceNorm 得 μ = 2.5 和 6.5，σ² 各为 1.25；"
                         "LayerNorm 在 (C,H,W) 上只有一个 μ = 4.5，σ² = 5.25。"};
        e.state = preset_state("seed003-in-vs-ln", default_spec(Method::Instance));
        e.state.selection = Index4{0, 1, 0, 0};
        e.view.compare = true;
        e.view.cube = true;
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "seed004-bn";
        e.title = {"Seed 004: BatchNorm of four samples, γ = 0.5, β = 0.2", "种子 004：四个样本的 BatchNorm，γ = 0.5，β = 0.2"};
        e.explanation = {"x = {1.5, −0.5, 2.0, −1.0}: μ = 0.5, σ² = 1.625 (biased), x̂ = ±0.784, ±1.176, "
                         "y = 0.5·x̂ + 0.2 = 0.592, −0.192, 0.788, −0.388.",
                         "x = {1.5, −0.5, 2.0, −1.0}：μ = 0.5，σ² = 1.625（有偏），x̂ = ±0.784、±1.176，"
                         "y = 0.5·x̂ + 0.2 = 0.592、−0.192、0.788、−0.388。"};
        e.state = preset_state("seed004-bn", default_spec(Method::Batch));
        e.state.params.weight = {0.5f};
        e.state.params.bias = {0.2f};
        e.state.selection = Index4{0, 0, 0, 0};
        e.view.heatmap = "output";
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "seed004-in";
        e.title = {"Seed 004: InstanceNorm of one 2×2 channel", "种子 004：一个 2×2 通道的 InstanceNorm"};
        e.explanation = {"[[0.8, 0.2], [0.5, 0.1]]: μ = 0.4, σ² = 0.075, x̂ = [[1.46, −0.73], [0.36, −1.09]].",
                         "[[0.8, 0.2], [0.5, 0.1]]：μ = 0.4，σ² = 0.075，x̂ = [[1.46, −0.73], [0.36, −1.09]]。"};
        e.state = preset_state("seed004-in", default_spec(Method::Instance));
        e.state.selection = Index4{0, 0, 0, 0};
        e.view.heatmap = "output";
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "batch-independence";
        e.kind = ExperimentKind::Pair;
        e.title = {"Seed 000 §7.4.5: batch independence (append a far-off sample)", "种子 000 §7.4.5：与 batch 无关（追加一个远离的样本）"};
        e.explanation = {"Right = the same 4 samples plus a 5th (sample 0 × 100 + 500). The difference on samples 0–3 is "
                         "exactly 0 under LayerNorm, InstanceNorm and GroupNorm, and not under BatchNorm. Press 1–5.",
                         "右边 = 同样 4 个样本再加第 5 个（样本 0 × 100 + 500）。样本 0–3 的差在 LayerNorm、InstanceNorm、"
                         "GroupNorm 下恰好为 0，在 BatchNorm 下不为 0。按 1–5 切换方法。"};
        e.state = preset_state("seed000-far-sample", default_spec(Method::Batch));
        e.right = e.state;
        e.left_samples = 4;
        e.follow_method = true;
        e.left_label = {"y: batch of 4 samples", "y：4 个样本的 batch"};
        e.right_label = {"y: the same 4 + a far-off 5th", "y：同样 4 个 + 远离的第 5 个"};
        e.view.heatmap = "output";
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "gn-continuum";
        e.kind = ExperimentKind::Continuum;
        e.title = {"GroupNorm continuum: from LayerNorm (G = 1) to InstanceNorm (G = C)", "GroupNorm 连续体：从 LayerNorm（G = 1）到 InstanceNorm（G = C）"};
        e.explanation = {"Move G over the divisors of C: G = 1 has exactly LayerNorm([C,H,W])'s statistics, G = C exactly "
                         "InstanceNorm's; in between, each group pools C/G channels.",
                         "在 C 的约数上移动 G：G = 1 的统计量与 LayerNorm([C,H,W]) 完全相同，G = C 与 InstanceNorm 完全相同；"
                         "介于两者之间时，每组汇集 C/G 个通道。"};
        e.state = preset_state("gn-continuum", group(2));
        e.state.selection = Index4{0, 2, 1, 1};
        e.view.compare = true;
        e.view.cube = true;
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "bn-train-eval";
        e.kind = ExperimentKind::TrainEval;
        e.title = {"BatchNorm: running statistics in train mode, then eval", "BatchNorm：训练模式下的运行统计量，然后推理"};
        e.explanation = {"Each train step normalizes a fresh batch with its own (biased) statistics and moves running_mean/var "
                         "10% towards the batch's (unbiased var). Switch to eval: the output now uses the running statistics.",
                         "每个训练步用新 batch 自己的（有偏）统计量归一化，并把 running_mean/var 向该 batch 的统计量（无偏方差）"
                         "移动 10%。切换到推理模式：输出改用运行统计量。"};
        e.state = preset_state("bn-train-eval", default_spec(Method::Batch));
        e.state.selection = Index4{0, 0, 1, 1};
        e.view.heatmap = "output";
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "misconception-layernorm-c";
        e.kind = ExperimentKind::Pair;
        e.title = {"Misconception: nn.LayerNorm(C) on NCHW normalizes W, not the channels", "误区：在 NCHW 上 nn.LayerNorm(C) 归一化的是 W，而不是通道"};
        e.explanation = {"C = W = 4, so nn.LayerNorm(4) runs, but over the last dim W. Over the channels needs channels-last "
                         "(x.permute(0, 2, 3, 1)); the difference is far from 0.",
                         "C = W = 4，所以 nn.LayerNorm(4) 能运行，但归一化的是最后一维 W。对通道归一化需要 channels-last"
                         "（x.permute(0, 2, 3, 1)）；两者之差远不为 0。"};
        e.state = preset_state("layernorm-c-trap", layer({4}));
        e.right = preset_state("layernorm-c-trap", layer({4}));
        e.right_channels_last = true;
        e.left_label = {"nn.LayerNorm(4) on NCHW (over W)", "在 NCHW 上 nn.LayerNorm(4)（对 W）"};
        e.right_label = {"channels-last LayerNorm over C", "channels-last 对 C 的 LayerNorm"};
        e.view.heatmap = "output";
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "misconception-groupnorm1";
        e.kind = ExperimentKind::Pair;
        e.title = {"Misconception: GroupNorm(1, C) is not \"LayerNorm over channels\"", "误区：GroupNorm(1, C) 不是“对通道的 LayerNorm”"};
        e.explanation = {"GroupNorm(1) pools all of C·H·W per sample (LayerNorm([C,H,W])'s statistics); LayerNorm over the "
                         "channels pools only C per pixel. Different statistics, different outputs.",
                         "GroupNorm(1) 对每个样本汇集全部 C·H·W（即 LayerNorm([C,H,W]) 的统计量）；对通道的 LayerNorm 只对每个像素"
                         "汇集 C 个值。统计量不同，输出也不同。"};
        e.state = preset_state("gn-continuum", group(1));
        e.right = preset_state("gn-continuum", layer({8}));
        e.right_channels_last = true;
        e.left_label = {"GroupNorm(1, C)", "GroupNorm(1, C)"};
        e.right_label = {"channels-last LayerNorm over C", "channels-last 对 C 的 LayerNorm"};
        e.view.heatmap = "output";
        out.push_back(e);
    }
    {
        Experiment e;
        e.id = "groupnorm1-equals-layernorm";
        e.kind = ExperimentKind::Pair;
        e.title = {"GroupNorm(1) and LayerNorm([C,H,W]): the same statistics", "GroupNorm(1) 与 LayerNorm([C,H,W])：统计量相同"};
        e.explanation = {"With default γ = 1, β = 0 the outputs agree (difference 0 up to rounding); only the affine "
                         "parameters differ: per channel [C] vs per element [C,H,W].",
                         "在默认 γ = 1、β = 0 时输出一致（差为 0，至多舍入误差）；只有仿射参数不同：按通道 [C] 与按元素 [C,H,W]。"};
        e.state = preset_state("gn-continuum", group(1));
        e.right = preset_state("gn-continuum", layer());
        e.left_label = {"GroupNorm(1, C)", "GroupNorm(1, C)"};
        e.right_label = {"LayerNorm([C, H, W])", "LayerNorm([C, H, W])"};
        e.view.heatmap = "output";
        out.push_back(e);
    }
    for (auto& e : out) e.view.experiment = e.id;
    return out;
}

}  // namespace

const std::vector<Experiment>& experiments() {
    static const std::vector<Experiment> all = build();
    return all;
}

const Experiment* find_experiment(const std::string& id) {
    for (const auto& e : experiments())
        if (e.id == id) return &e;
    return nullptr;
}

Tensor to_channels_last(const Tensor& x) {
    const Shape4& s = x.shape;
    Tensor out(Shape4{s.n, s.h, s.w, s.c});
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t c = 0; c < s.c; ++c)
            for (std::int64_t h = 0; h < s.h; ++h)
                for (std::int64_t w = 0; w < s.w; ++w)
                    out.data[static_cast<std::size_t>(out.offset(n, h, w, c))] = x.at(n, c, h, w);
    return out;
}

Tensor from_channels_last(const Tensor& y) {
    const Shape4& s = y.shape;  // {N, H, W, C}
    Tensor out(Shape4{s.n, s.w, s.c, s.h});
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t h = 0; h < s.c; ++h)
            for (std::int64_t w = 0; w < s.h; ++w)
                for (std::int64_t c = 0; c < s.w; ++c)
                    out.data[static_cast<std::size_t>(out.offset(n, c, h, w))] = y.at(n, h, w, c);
    return out;
}

Tensor first_samples(const Tensor& x, std::int64_t k) {
    k = std::clamp<std::int64_t>(k, 1, x.shape.n);
    Tensor out(Shape4{k, x.shape.c, x.shape.h, x.shape.w});
    std::copy_n(x.data.begin(), out.data.size(), out.data.begin());
    return out;
}

std::vector<std::int64_t> divisors(std::int64_t c) {
    std::vector<std::int64_t> d;
    for (std::int64_t g = 1; g <= c; ++g)
        if (c % g == 0) d.push_back(g);
    return d;
}

}  // namespace normlab
