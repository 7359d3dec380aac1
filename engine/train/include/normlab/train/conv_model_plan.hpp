// The planner of the cnn: a TrainConfig (model cnn, data textures) → the TrainProgram of its training step
// and of its evaluation, with the same buffers, kernels and conventions as the mlp's (train_plan.hpp): per
// layer Conv2d 3×3 (conv_plan.hpp) → Norm → Act (or → Act → Norm), AvgPool2d(2) after layers 1, 3, 5
// (pool_plan.hpp), the global average pool, the head Linear(C, K), softmax cross-entropy, the backward
// and the optimizer. LayerNorm([C, H, W]) and RMS normalise and scale each sample's C·H·W elements.
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_plan.hpp"
#include "normlab/train/train_program.hpp"

namespace normlab::train {

// The cnn's program (c valid, c.model cnn). Buffers: the data "x_train" (samples × 256), "y_train",
// "x_val", "y_val", "batches"; the parameters by their PyTorch names (init_cnn_params); "log", "val_log",
// "step". Its norms are planned as the mlp's (train_norm_plan.hpp), small sets one invocation each.
TrainProgram plan_cnn_training(const TrainConfig& c, const TrainPlanOptions& o = {});

}  // namespace normlab::train
