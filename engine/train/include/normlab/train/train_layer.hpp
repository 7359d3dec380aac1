// A hidden layer of a training run read back from its device (any TrainDevice: the Vulkan and the WebGPU
// runner alike): the input of the layer's norm in the last step's batch — the Linear's or Conv2d's output z
// with the norm before the activation, the activation's output with it after (a run without a norm: where
// its norm would be) — with the layer's shape ([B, W] for the mlp, [B, C, H, W] for the cnn) and the norm's
// parameters and running statistics as they are now, named as the PyTorch module names them.
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_device.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::train {

// The program's buffer holding layer `layer`'s norm input of the step's batch ("layers.{i}.z" or
// "layers.{i}.act"); InputError for a layer outside 0..depth−1.
std::string train_norm_input_name(const TrainConfig& c, int layer);
// That buffer's dims: [batch, width] (mlp) or [batch, channels, side, side] (cnn).
std::vector<std::int64_t> train_layer_dims(const TrainConfig& c, int layer);

struct TrainLayerRead {
    int layer = 0;
    int step = 0;                                  // the 1-based step whose batch `x` is (steps run)
    std::vector<std::int64_t> dims;                // train_layer_dims
    std::vector<float> x;                          // the norm's input, row-major over dims
    std::vector<float> weight, bias;               // γ, β now (empty where the norm has none)
    std::vector<float> running_mean, running_var;  // BatchNorm's, now (else empty)
};

// Reads layer `layer` of the run on `d` (made from plan_mlp_training or plan_cnn_training of `c`); waits
// for what was submitted. InputError for a layer outside the model or before the first step.
TrainLayerRead read_train_layer(TrainDevice& d, const TrainConfig& c, int layer);

}  // namespace normlab::train
