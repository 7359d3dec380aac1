// The parameters and buffers of a model with the names of its PyTorch module (layers.{i}.linear.weight,
// layers.{i}.linear.bias, layers.{i}.norm.weight, .bias, .running_mean, .running_var, head.weight,
// head.bias), their shapes, and their initial values drawn like PyTorch's defaults from the seed
// (Linear: U(−1/√fan_in, 1/√fan_in) for weight and bias; norms: γ = 1, β = 0, running mean 0, var 1).
#pragma once
#include "normlab/train/train_config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::train {

struct TrainTensor {
    std::string name;
    std::vector<std::int64_t> shape;
    std::vector<float> values;
    bool trained = true;  // false: a buffer (running statistics), not a parameter
    std::uint64_t elements() const;
};

// Layer i's input features of the mlp (2 for the first, W after).
int mlp_in_features(const TrainConfig& c, int layer);
// Whether the norm has a weight (every norm but none), a bias (batch, layer, instance, group) and
// running statistics (batch).
bool norm_has_weight(TrainNorm n);
bool norm_has_bias(TrainNorm n);
bool norm_has_running(TrainNorm n);

// Every parameter and buffer of the mlp of c, in module order, initialised from c.seed.
std::vector<TrainTensor> init_mlp_params(const TrainConfig& c);

// The tensor named `name` (InternalError when absent).
const TrainTensor& find_tensor(const std::vector<TrainTensor>& ts, const std::string& name);
TrainTensor& find_tensor(std::vector<TrainTensor>& ts, const std::string& name);

}  // namespace normlab::train
