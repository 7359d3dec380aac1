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
        p.x = make_tensor({4, 6, 4, 4}, Init::Randn, 0);
        for (std::int64_t i = 0; i < p.x.shape.numel(); ++i) {
            auto idx = unravel(p.x.shape, i);  // give channels and samples distinct offsets and scales
            float& v = p.x.data[static_cast<std::size_t>(i)];
            v = v * (0.5f + 0.25f * static_cast<float>(idx[1])) + static_cast<float>(idx[1]) - 2.0f + 0.5f * static_cast<float>(idx[0]);
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
