// The passes of the cnn's Conv2d(Cin, Cout, 3, stride 1, padding 1) on NCHW float32 buffers, appended to a
// TrainProgram: the forward (shaders/train_conv_forward.comp), ∂x (train_conv_backward_input.comp) and
// ∂W with ∂b as reductions over N·H·W (train_conv_grad_params.comp). Buffers are indices into
// TrainProgram::buffers; every pass overwrites its outputs. The float64 meaning is conv_reference.hpp.
#pragma once
#include "normlab/train/conv_reference.hpp"
#include "normlab/train/train_program.hpp"

#include <cstdint>

namespace normlab::train {

// Invocations per workgroup of the training kernels but train_step and train_adam_bias (their local_size_x).
inline constexpr std::uint32_t kTrainGroupSize = 64;

// The grid of `groups` workgroups (at least one) as every backend dispatches it (dispatch_grid, ≤ 65535 a side).
std::array<std::uint32_t, 3> train_grid(std::uint64_t groups);
// The grid of kTrainGroupSize-invocation workgroups for `invocations` invocations, the one every
// training planner (mlp, cnn, conv, pool, norm) uses.
std::array<std::uint32_t, 3> train_groups_for(std::uint64_t invocations);

// y (n×cout×h×w) = conv(x (n×cin×h×w), weight (cout×cin×3×3), bias (cout)).
void plan_conv3x3_forward(TrainProgram& p, const ConvShape& s, int x, int weight, int bias, int y);
// dx (n×cin×h×w) from dy (n×cout×h×w) and weight.
void plan_conv3x3_backward_input(TrainProgram& p, const ConvShape& s, int dy, int weight, int dx);
// dweight (cout×cin×3×3) and dbias (cout) from x and dy, each summed over n, h and w.
void plan_conv3x3_grad_params(TrainProgram& p, const ConvShape& s, int x, int dy, int dweight, int dbias);

}  // namespace normlab::train
