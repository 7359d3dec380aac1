#include "normlab/train/conv_layers.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/texture_data.hpp"

#include <cmath>

namespace normlab::train {

std::vector<CnnLayerShape> cnn_layer_shapes(int depth, int channels, int batch) {
    if (depth < 1 || depth > kCnnMaxDepth)
        throw core::InputError("cnn: --depth must be 1 to 8, not " + std::to_string(depth));
    if (channels < 1) throw core::InputError("cnn: --channels must be at least 1");
    if (batch < 1) throw core::InputError("cnn: --batch must be at least 1");
    std::vector<CnnLayerShape> layers;
    int side = kTextureSide;
    for (int i = 0; i < depth; ++i) {
        CnnLayerShape l;
        l.conv = ConvShape{batch, i == 0 ? 1 : channels, channels, side, side};
        l.pool_after = i == 1 || i == 3 || i == 5;
        if (l.pool_after) side /= 2;
        l.out_side = side;
        layers.push_back(l);
    }
    return layers;
}

namespace {

std::vector<float> narrow(const std::vector<double>& v) { return {v.begin(), v.end()}; }

void add_norm(std::vector<TrainTensor>& out, const std::string& p, const TrainConfig& c, int side) {
    const bool per_element = c.norm == TrainNorm::Layer || c.norm == TrainNorm::Rms;
    std::vector<std::int64_t> shape{c.channels};
    if (per_element) shape = {c.channels, side, side};
    std::size_t n = per_element ? static_cast<std::size_t>(c.channels) * side * side : c.channels;
    if (norm_has_weight(c.norm)) out.push_back({p + ".norm.weight", shape, std::vector<float>(n, 1.0f), true});
    if (norm_has_bias(c.norm)) out.push_back({p + ".norm.bias", shape, std::vector<float>(n, 0.0f), true});
    if (norm_has_running(c.norm)) {
        out.push_back({p + ".norm.running_mean", shape, std::vector<float>(n, 0.0f), false});
        out.push_back({p + ".norm.running_var", shape, std::vector<float>(n, 1.0f), false});
    }
}

}  // namespace

std::vector<TrainTensor> init_cnn_params(const TrainConfig& c) {
    TrainRng rng(c.seed * 4);
    std::vector<TrainTensor> out;
    const auto layers = cnn_layer_shapes(c.depth, c.channels, 1);
    for (int i = 0; i < c.depth; ++i) {
        const ConvShape& s = layers[i].conv;
        ConvParams p = conv3x3_init(s.cin, s.cout, rng);
        out.push_back({cnn_conv_weight_name(i), {s.cout, s.cin, 3, 3}, narrow(p.weight), true});
        out.push_back({cnn_conv_bias_name(i), {s.cout}, narrow(p.bias), true});
        add_norm(out, "layers." + std::to_string(i), c, s.h);
    }
    const double bound = 1.0 / std::sqrt(static_cast<double>(c.channels));  // Linear(C, K)'s default
    TrainTensor w{"head.weight", {c.classes, c.channels}, {}, true}, b{"head.bias", {c.classes}, {}, true};
    for (std::uint64_t k = 0; k < w.elements(); ++k) w.values.push_back(static_cast<float>(rng.uniform(-bound, bound)));
    for (std::uint64_t k = 0; k < b.elements(); ++k) b.values.push_back(static_cast<float>(rng.uniform(-bound, bound)));
    out.push_back(std::move(w));
    out.push_back(std::move(b));
    return out;
}

std::string cnn_conv_weight_name(int layer) { return "layers." + std::to_string(layer) + ".conv.weight"; }
std::string cnn_conv_bias_name(int layer) { return "layers." + std::to_string(layer) + ".conv.bias"; }

}  // namespace normlab::train
