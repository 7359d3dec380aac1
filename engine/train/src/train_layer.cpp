// A layer's norm input and parameters read back from a training run (train_layer.hpp).
#include "normlab/train/train_layer.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/train_params.hpp"

namespace normlab::train {
namespace {

void check_layer(const TrainConfig& c, int layer) {
    if (layer < 0 || layer >= c.depth)
        throw core::InputError("layer " + std::to_string(layer + 1) + " is outside the model's 1.." +
                               std::to_string(c.depth));
}

}  // namespace

std::string train_norm_input_name(const TrainConfig& c, int layer) {
    check_layer(c, layer);
    return "layers." + std::to_string(layer) + (c.norm_after ? ".act" : ".z");
}

std::vector<std::int64_t> train_layer_dims(const TrainConfig& c, int layer) {
    check_layer(c, layer);
    if (c.model == TrainModel::Mlp) return {c.batch, c.width};
    const ConvShape s = cnn_layer_shapes(c.depth, c.channels, c.batch)[static_cast<std::size_t>(layer)].conv;
    return {s.n, s.cout, s.h, s.w};
}

TrainLayerRead read_train_layer(TrainDevice& d, const TrainConfig& c, int layer) {
    TrainLayerRead r;
    r.layer = layer;
    r.dims = train_layer_dims(c, layer);
    r.step = d.steps_run();
    if (r.step == 0) throw core::InputError("the run has not run a step yet: its layers hold no batch");
    std::int64_t n = 1;
    for (std::int64_t v : r.dims) n *= v;
    r.x = d.download(train_norm_input_name(c, layer));
    r.x.resize(static_cast<std::size_t>(n));
    const std::string q = "layers." + std::to_string(layer) + ".norm.";
    if (norm_has_weight(c.norm)) r.weight = d.download(q + "weight");
    if (norm_has_bias(c.norm)) r.bias = d.download(q + "bias");
    if (norm_has_running(c.norm)) {
        r.running_mean = d.download(q + "running_mean");
        r.running_var = d.download(q + "running_var");
    }
    return r;
}

}  // namespace normlab::train
