// The cnn's whole training step against its float64 reference (CnnReference) on any TrainDevice, shared by the
// Vulkan suite (tests/train/test_cnn_reference.cpp) and the browser's (tests/web/wasm/train_test.cpp): the small
// cnn the checks train, the configurations they cover, and the comparison with its tolerances. A check returns
// one line per failure (empty: passed).
#pragma once
#include "normlab/train/train_config.hpp"
#include "train_checks.hpp"

#include <string>
#include <vector>

namespace normlab::test {

// The small cnn of the reference checks: 3 conv layers of 4 channels (an AvgPool2d after the second, so the
// third runs on 8×8), 3 texture classes, 16 images, batch 4, 6 steps; GroupNorm with 2 groups.
train::TrainConfig small_cnn_config(train::TrainNorm norm, bool after, train::TrainActivation act,
                                    train::TrainOptimizer opt);

// Every norm × both optimizers × both placements, the activations spread over them, less InstanceNorm2d after the
// activation under Adam (the last layer's planes, averaged by the global pool, give the head only β: every
// earlier parameter's exact gradient is 0, and Adam turns the rounding noise into steps of lr).
std::vector<train::TrainConfig> cnn_reference_configs();
// A short name of a configuration: "batch before relu sgd".
std::string cnn_config_name(const train::TrainConfig& c);

// A device run of c from init_cnn_params(c) and make_train_data(c) against CnnReference: every step's loss
// within 1e-4 relative and its accuracy exact, the final parameters and buffers within 1e-4 under SGD and 1e-3
// under Adam (relative above 1; elements CnnReference::noise_bound flags left out), the validation loss within
// 1e-4 and its accuracy exact. A conv bias right before a centring norm under Adam (cnn_noise_bound) follows
// rounding noise: it is checked only to have moved by at most lr a step, and BatchNorm's running mean after it
// and the validation scores (which use that mean) are not compared.
std::vector<std::string> check_cnn_against_reference(const train::TrainConfig& c, const TrainRun& dev);

}  // namespace normlab::test
