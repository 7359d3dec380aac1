#include "normlab/presets.hpp"

#include "normlab/tensor_init.hpp"

namespace normlab {
namespace {

Tensor tensor(Shape4 s, std::vector<float> v) {
    Tensor t(s);
    t.data = std::move(v);
    return t;
}

std::vector<Preset> build() {
    std::vector<Preset> out;
    {
        Preset p;
        p.name = "seed003-in-vs-ln";
        p.source = "seed 003: InstanceNorm vs LayerNorm";
        p.description = "one sample, C=2, 2x2: InstanceNorm gives mu = 2.5 and 6.5 (var 1.25 each); "
                        "LayerNorm over (C,H,W) gives mu = 4.5, var 5.25";
        p.source_zh = "种子 003：InstanceNorm 与 LayerNorm";
        p.description_zh = "一个样本，C=2，2×2：InstanceNorm 得 μ = 2.5 和 6.5（方差各 1.25）；LayerNorm 在 (C,H,W) 上得 μ = 4.5，方差 5.25";
        p.x = tensor({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
        p.spec = default_spec(Method::Instance);
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "seed004-bn";
        p.source = "seed 004: BatchNorm of four samples of one channel";
        p.description = "x = {1.5, -0.5, 2.0, -1.0}: mu = 0.5, var = 1.625, x_hat = 0.784, -0.784, 1.176, -1.176; "
                        "gamma 0.5, beta 0.2 give y = 0.592, -0.192, 0.788, -0.388";
        p.source_zh = "种子 004：一个通道四个样本的 BatchNorm";
        p.description_zh = "x = {1.5, -0.5, 2.0, -1.0}：μ = 0.5，方差 1.625，x̂ = 0.784, -0.784, 1.176, -1.176；γ = 0.5、β = 0.2 得 y = 0.592, -0.192, 0.788, -0.388";
        p.x = tensor({4, 1, 1, 1}, {1.5f, -0.5f, 2.0f, -1.0f});
        p.spec = default_spec(Method::Batch);
        p.params.weight = {0.5f};
        p.params.bias = {0.2f};
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "seed004-in";
        p.source = "seed 004: InstanceNorm of one 2x2 channel";
        p.description = "[[0.8, 0.2], [0.5, 0.1]]: mu = 0.4, var = 0.075, x_hat = [[1.46, -0.73], [0.36, -1.09]]";
        p.source_zh = "种子 004：一个 2×2 通道的 InstanceNorm";
        p.description_zh = "[[0.8, 0.2], [0.5, 0.1]]：μ = 0.4，方差 0.075，x̂ = [[1.46, -0.73], [0.36, -1.09]]";
        p.x = tensor({1, 1, 2, 2}, {0.8f, 0.2f, 0.5f, 0.1f});
        p.spec = default_spec(Method::Instance);
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "seed000-far-sample";
        p.source = "seed 000, section 7.4.5: batch independence";
        p.description = "4 random samples plus a 5th = sample 0 x 100 + 500: LayerNorm leaves samples 0-3 exactly as "
                        "without it, BatchNorm changes them";
        Shape4 s{5, 3, 4, 4};
        Tensor t = make_tensor({4, 3, 4, 4}, Init::Randn, 7);
        std::vector<float> v = t.data;
        for (std::int64_t i = 0; i < s.chw(); ++i) v.push_back(t.data[static_cast<std::size_t>(i)] * 100.0f + 500.0f);
        p.source_zh = "种子 000 第 7.4.5 节：与 batch 无关";
        p.description_zh = "4 个随机样本再加第 5 个 = 样本 0 × 100 + 500：LayerNorm 对样本 0–3 的输出与没有它时完全相同，BatchNorm 则改变了它们";
        p.x = tensor(s, v);
        p.spec = default_spec(Method::Layer);
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "large-mean";
        p.source = "numerics: x = 1e4 + 0.1 randn";
        p.description = "a large common offset: E[x^2]-E[x]^2 in float32 would lose every digit of the variance; "
                        "normlab's shifted two-pass keeps the output within 1e-6";
        p.source_zh = "数值：x = 1e4 + 0.1 randn";
        p.description_zh = "很大的公共偏移：float32 里的 E[x²]−E[x]² 会丢掉方差的全部有效数字；normlab 的平移两遍算法使输出误差保持在 1e-6 内";
        p.x = make_tensor({2, 4, 8, 8}, Init::Randn, 11);
        for (auto& v : p.x.data) v = 1e4f + 0.1f * v;
        p.spec = default_spec(Method::Layer);
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "layernorm-c-trap";
        p.source = "misconception: nn.LayerNorm(C) on NCHW";
        p.description = "C = W = 4: LayerNorm([4]) normalizes each row of W, not the channels; a channels-only "
                        "LayerNorm needs channels-last";
        p.source_zh = "误区：在 NCHW 上用 nn.LayerNorm(C)";
        p.description_zh = "C = W = 4：LayerNorm([4]) 归一化的是 W 的每一行，而不是通道；只对通道归一化需要 channels-last";
        p.x = make_tensor({2, 4, 3, 4}, Init::Randn, 5);
        p.spec = default_spec(Method::Layer);
        p.spec.normalized_shape = {4};
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "classroom";
        p.source = "the default tensor";
        p.description = "4 samples, 6 channels, 4x4: small enough to see every element";
        p.source_zh = "默认张量";
        p.description_zh = "4 个样本、6 个通道、4×4：小到能看清每个元素";
        p.x = make_tensor({4, 6, 4, 4}, Init::Randn, 0);
        for (std::int64_t i = 0; i < p.x.shape.numel(); ++i) {
            auto idx = unravel(p.x.shape, i);  // give channels and samples distinct offsets and scales
            float& v = p.x.data[static_cast<std::size_t>(i)];
            v = v * (0.5f + 0.25f * static_cast<float>(idx[1])) + static_cast<float>(idx[1]) - 2.0f + 0.5f * static_cast<float>(idx[0]);
        }
        p.spec = default_spec(Method::Batch);
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "gn-continuum";
        p.source = "GroupNorm continuum: G over the divisors of C";
        p.description = "2 samples, C = 8 channels in four pairs of similar channels: G = 1 has LayerNorm([C,H,W])'s "
                        "statistics, G = 8 InstanceNorm's, G = 2 and 4 lie between";
        p.source_zh = "GroupNorm 连续体：G 取 C 的约数";
        p.description_zh = "2 个样本，C = 8 个通道（四对相似通道）：G = 1 的统计量等于 LayerNorm([C,H,W])，G = 8 等于 InstanceNorm，G = 2、4 介于两者之间";
        p.x = make_tensor({2, 8, 3, 3}, Init::Randn, 3);
        for (std::int64_t i = 0; i < p.x.shape.numel(); ++i) {
            auto idx = unravel(p.x.shape, i);
            float& v = p.x.data[static_cast<std::size_t>(i)];
            v = v * (0.4f + 0.3f * static_cast<float>(idx[1] / 2)) + 1.5f * static_cast<float>(idx[1] / 2) - 2.0f +
                static_cast<float>(idx[0]);
        }
        p.spec = default_spec(Method::Group);
        p.spec.groups = 2;
        out.push_back(p);
    }
    {
        Preset p;
        p.name = "bn-train-eval";
        p.source = "BatchNorm: running statistics, train vs eval";
        p.description = "8 samples, 3 channels with means 2, -1, 0.5 and std 1.5, 0.5, 1: train steps move the running "
                        "mean/var from 0/1 towards them (unbiased var, momentum 0.1); eval then uses them";
        p.source_zh = "BatchNorm：运行统计量，训练与推理";
        p.description_zh = "8 个样本、3 个通道，均值 2、-1、0.5，标准差 1.5、0.5、1：训练步使运行均值/方差从 0/1 逐步接近它们（无偏方差，momentum 0.1）；推理模式再使用它们";
        p.x = make_tensor({8, 3, 4, 4}, Init::Randn, 21);
        const float mean[] = {2.0f, -1.0f, 0.5f}, sd[] = {1.5f, 0.5f, 1.0f};
        for (std::int64_t i = 0; i < p.x.shape.numel(); ++i) {
            auto c = static_cast<std::size_t>(unravel(p.x.shape, i)[1]);
            float& v = p.x.data[static_cast<std::size_t>(i)];
            v = mean[c] + sd[c] * v;
        }
        p.spec = default_spec(Method::Batch);
        out.push_back(p);
    }
    return out;
}

}  // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> all = build();
    return all;
}

const Preset* find_preset(const std::string& name) {
    for (const auto& p : presets())
        if (p.name == name) return &p;
    return nullptr;
}

}  // namespace normlab
