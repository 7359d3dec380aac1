// The cnn's layer geometry: per layer i (0-based) Conv2d(in, C, 3, padding=1) on 1×16×16 inputs (in = 1
// for the first layer, C after), then AvgPool2d(2) after layers 1, 3 and 5; a global average pool and the
// head Linear(C, K) close it. Its planner and its float64 reference read the shapes from here.
#pragma once
#include "normlab/train/conv_reference.hpp"
#include "normlab/train/pool_reference.hpp"
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_params.hpp"

#include <string>
#include <vector>

namespace normlab::train {

inline constexpr int kCnnMaxDepth = 8;

struct CnnLayerShape {
    ConvShape conv;           // n = batch; h = w = the layer's side
    bool pool_after = false;  // AvgPool2d(2) after this layer (i = 1, 3, 5)
    int out_side = 16;        // the side after this layer (and its pool)
};

// The layers of a cnn of `depth` (1–8) conv layers of `channels` on a batch of `batch` 1×16×16 images.
// Throws InputError for a depth, channel count or batch below 1, or a depth past 8.
std::vector<CnnLayerShape> cnn_layer_shapes(int depth, int channels, int batch);

// Every parameter and buffer of the cnn of c (c valid, c.model cnn) with the names of its PyTorch module, in
// module order, drawn from c.seed's stream (seed·4, as the mlp's): per layer conv.weight (C×in×3×3) and
// conv.bias (C) as conv3x3_init, then the norm's weight (1) and bias (0), [C] for batch, instance and group,
// [C, H, W] for layer and rms, and BatchNorm2d's running_mean (0) and running_var (1); last head.weight (K×C)
// and head.bias (K), U(−1/√C, 1/√C).
std::vector<TrainTensor> init_cnn_params(const TrainConfig& c);

// PyTorch's names of layer i's Conv2d parameters: "layers.{i}.conv.weight" and "layers.{i}.conv.bias".
std::string cnn_conv_weight_name(int layer);
std::string cnn_conv_bias_name(int layer);

}  // namespace normlab::train
