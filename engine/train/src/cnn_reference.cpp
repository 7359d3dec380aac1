// The cnn's float64 training step (cnn_reference.hpp): the per-op references (conv_reference.hpp,
// pool_reference.hpp) chained with the references' shared norms, activations, head and loss
// (train_reference_ops.hpp) and optimizer (reference_state.hpp).
#include "normlab/train/cnn_reference.hpp"

#include "normlab/train/conv_layers.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "train_reference_ops.hpp"

#include <utility>

namespace normlab::train {

using reference::Vec;

struct CnnReference::Layer {
    CnnLayerShape shape;
    Vec in, act_out;  // the conv's input, the activation's output
    reference::NormOut norm;
};

namespace {

// The norm's layout on a layer's N×C×H×W output, as the planner's (conv_model_plan.cpp): LayerNorm([C, H, W])
// and RMS scale each of a sample's C·H·W elements (the mlp's layout on C·H·W features); the others keep C
// channels of H·W.
TrainNormLayout cnn_norm_layout(const TrainConfig& c, const ConvShape& s) {
    const auto n = static_cast<std::uint32_t>(s.n), ch = static_cast<std::uint32_t>(c.channels);
    const auto hw = static_cast<std::uint32_t>(s.h * s.w), g = static_cast<std::uint32_t>(c.groups);
    if (c.norm == TrainNorm::Layer || c.norm == TrainNorm::Rms) return train_norm_layout(c.norm, n, ch * hw, 1, g);
    return train_norm_layout(c.norm, n, ch, hw, g);
}

std::string layer_prefix(int i) { return "layers." + std::to_string(i) + "."; }

}  // namespace

CnnReference::CnnReference(const TrainConfig& c, const std::vector<TrainTensor>& init) : c_(c), t_(init) {}

const std::vector<double>& CnnReference::tensor(const std::string& name) const { return t_.at(name); }

TrainScore CnnReference::forward(const Vec& x, const std::vector<std::int32_t>& y, int n, bool train,
                                 std::vector<Layer>* keep, Vec* features, Vec* dlogits) {
    const bool normed = c_.norm != TrainNorm::None;
    const auto shapes = cnn_layer_shapes(c_.depth, c_.channels, n);
    Vec h = x;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const std::string q = layer_prefix(static_cast<int>(i));
        const ConvShape& s = shapes[i].conv;
        Layer l{shapes[i], keep ? h : Vec{}, {}, {}};
        Vec z = conv3x3_forward(s, h, t_[q + "conv.weight"], t_[q + "conv.bias"]);
        auto do_norm = [&](const Vec& v) {
            const bool running = norm_has_running(c_.norm);
            l.norm = reference::norm_forward(cnn_norm_layout(c_, s), c_.norm, v, &t_[q + "norm.weight"],
                                             norm_has_bias(c_.norm) ? &t_[q + "norm.bias"] : nullptr,
                                             running ? &t_[q + "norm.running_mean"] : nullptr,
                                             running ? &t_[q + "norm.running_var"] : nullptr, train);
            return l.norm.y;
        };
        if (normed && !c_.norm_after) z = do_norm(z);
        for (auto& v : z) v = reference::act(c_.activation, v);
        if (keep) l.act_out = z;
        if (normed && c_.norm_after) z = do_norm(z);
        if (shapes[i].pool_after) z = avgpool2_forward(PoolShape{n, c_.channels, s.h, s.w}, z);
        h = std::move(z);
        if (keep) keep->push_back(std::move(l));
    }
    const int side = shapes.back().out_side;
    Vec feat = global_avgpool_forward(PoolShape{n, c_.channels, side, side}, h);
    const Vec logits = reference::linear(feat, t_["head.weight"], t_["head.bias"], n, c_.channels, c_.classes);
    if (features) *features = std::move(feat);
    return reference::softmax_cross_entropy(logits, y, n, c_.classes, dlogits);
}

void CnnReference::backward(const std::vector<Layer>& layers, const Vec& features, const Vec& dlogits, int n) {
    const bool normed = c_.norm != TrainNorm::None;
    const int ch = c_.channels;
    t_.zero_grads();
    const Vec dfeat = reference::linear_backward(features, t_["head.weight"], dlogits, n, ch, c_.classes,
                                                 t_["grad.head.weight"], t_["grad.head.bias"], true);
    const int side = layers.back().shape.out_side;
    Vec dy = global_avgpool_backward(PoolShape{n, ch, side, side}, dfeat);
    for (int i = static_cast<int>(layers.size()) - 1; i >= 0; --i) {
        const Layer& l = layers[i];
        const ConvShape& s = l.shape.conv;
        const std::string q = layer_prefix(i);
        if (l.shape.pool_after) dy = avgpool2_backward(PoolShape{n, ch, s.h, s.w}, dy);
        dy = reference::norm_act_backward(c_, normed ? cnn_norm_layout(c_, s) : TrainNormLayout{}, l.norm, l.act_out,
                                          std::move(dy), t_, q);
        ConvGrads g = conv3x3_backward(s, l.in, t_[q + "conv.weight"], dy);
        t_["grad." + q + "conv.weight"] = std::move(g.dweight);
        t_["grad." + q + "conv.bias"] = std::move(g.dbias);
        dy = std::move(g.dx);
    }
}

std::vector<bool> CnnReference::noise_bound(const std::string& name) const {
    const auto pos = name.find(".norm.running_mean");
    if (pos == std::string::npos) return t_.noise(name);
    return t_.noise(name.substr(0, pos) + ".conv.bias");
}

TrainScore CnnReference::step(const TrainDataSet& data, const std::vector<std::int32_t>& batch) {
    Vec x, features, dlogits;
    std::vector<std::int32_t> y;
    reference::gather(data, batch, x, y);
    std::vector<Layer> layers;
    const int n = static_cast<int>(batch.size());
    const TrainScore s = forward(x, y, n, true, &layers, &features, &dlogits);
    backward(layers, features, dlogits, n);
    t_.update(c_, ++steps_);
    return s;
}

TrainScore CnnReference::evaluate(const TrainDataSet& data) const {
    auto& self = const_cast<CnnReference&>(*this);  // eval mode leaves every tensor as it is
    return self.forward(Vec(data.x.begin(), data.x.end()), data.y, data.samples(), false, nullptr, nullptr, nullptr);
}

}  // namespace normlab::train
