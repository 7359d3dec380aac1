// The planner: a TrainConfig → the TrainProgram (train_program.hpp) of the mlp's training step and
// of its evaluation pass. Kernels (shaders/train_*.comp), their parameter words in order:
//   train_gather   B, F                          → x (B×F), labels (B) from x_train, y_train, batches[step]
//   train_linear   N, In, Out, act               Y = f(X·Wᵀ + b), Z = X·Wᵀ + b        [X, W, b, Y, Z]
//   train_linear_dx N, In, Out, act              dX = dY·W · f'(A)                    [dY, W, dX, A]
//   train_linear_dw N, In, Out, sgd, lr, momentum
//                                                dW = dYᵀ·X, db = Σₙ dY (+ SGD)      [dY, X, dW, db, W, b, mW, mb]
//   train_act      count, kind, backward         fwd Y = f(X); bwd dX = dY·f'(Y)     [X|Y, Y|dY, —|dX]
//   train_norm_fwd layout words (10), flags, eps, momentum                           [X, Y, xhat, stats, γ, β, rm, rv]
//   train_linear_norm N, In, Out, layout words (10), flags, eps
//                                                Z = X·Wᵀ + b, Y = f(norm(Z)), a row norm's sets
//                                                                      [X, W, b, Z, Y, xhat, stats, γ, β]
//   train_norm_bwd layout words (10), flags                                          [dY, xhat, stats, γ, dX]
//   train_norm_pgrad channels, rows, row_stride, channel_stride, inner, has_bias, sgd, lr, momentum
//                                                dγ, dβ (+ SGD)                      [dY, xhat, dγ, dβ, γ, β, mγ, mβ]
//   train_norm_bwd_params layout words (10), flags, sgd, lr, momentum
//                                                BatchNorm's dX, dγ, dβ (+ SGD), one invocation per channel
//                                                                   [dY, xhat, stats, γ, dX, dγ, dβ, β, mγ, mβ]
//   train_loss     N, K, eval                    loss, accuracy → log[2·index]; train: dlogits, step += 1
//                                                                       [logits, labels, dlogits, log, step]
//   train_head_loss N, K, eval (0), In           the step's head Linear, then train_loss's step
//                                                                 [X, W, b, logits, labels, dlogits, log, step]
//   train_sgd      count, lr, momentum           buf = m·buf + g; p −= lr·buf        [p, g, buf]
//   train_adam_bias β1, 1−β1, β2, 1−β2           1 − βᵗ = (1 − β) + β(1 − βᵗ⁻¹), once a step  [bias]
//   train_adam     count, lr, β1, 1−β1, β2, 1−β2, eps  torch.optim.Adam                 [p, g, m, v, bias]
// The three Linear kernels run an invocation per block of 4 × 4 outputs (train_linear_groups).
// act: the activation fused into the pass, 0 none, else TrainActivation + 1 (train_act_common.glsl). sgd ≠ 0:
// the gradient's pass also takes train_sgd's step on the parameter with its momentum buffer (m…).
// Norm flags: 1 rms (no centring), 2 normalise with the running statistics (BN in eval),
// 4 update the running statistics (BN in training), 8 has a bias (β), 16 one invocation per set (sets of at
// most TrainPlanOptions::serial_norm_members: no barriers, the fastest on lavapipe; 64 sets a workgroup);
// flags >> 5: train_norm_fwd's fused activation (act).
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_params.hpp"
#include "normlab/train/train_program.hpp"

#include <array>
#include <string>
#include <vector>

namespace normlab::train {

inline constexpr std::uint32_t kTrainNormRms = 1, kTrainNormUseRunning = 2, kTrainNormUpdateRunning = 4,
                               kTrainNormHasBias = 8, kTrainNormSerial = 16, kTrainNormActShift = 5;
inline constexpr double kTrainBnMomentum = 0.1;
// The storage buffers of train_head_step (the head's Linear, the loss and the head's backward in one pass), which
// the mlp's step takes where TrainPlanOptions::max_storage_buffers allows them (else train_head_loss and the
// head's train_linear_dx, train_linear_dw).
inline constexpr std::uint32_t kTrainHeadStepBuffers = 13;
inline constexpr double kAdamBeta1 = 0.9, kAdamBeta2 = 0.999, kAdamEps = 1e-8;

// The mlp's program (c valid, c.model mlp). Buffers named as train_program.hpp says: the data
// "x_train", "y_train", "x_val", "y_val", "batches"; the parameters by their PyTorch names; "log"
// and "val_log" (2·steps f32 each); "step".
struct TrainPlanOptions {
    // Norms over sets of at most this many elements run one invocation per set (flag 16), larger ones
    // one workgroup per set, in the mlp and the cnn (train_norm_plan.hpp). 0: always a workgroup per
    // set (the tests check both).
    std::uint32_t serial_norm_members = 1024;
    // Points evaluated after the validation set (the Train view's decision-boundary grid): "x_val"
    // holds them after its samples, the evaluation's forward runs over both and its "eval.logits" keeps
    // their logits after the validation set's; the loss and accuracy stay the validation set's alone.
    std::uint32_t eval_grid = 0;
    // The device's storage buffers per shader stage (Vulkan's maxPerStageDescriptorStorageBuffers, WebGPU's
    // maxStorageBuffersPerShaderStage); 8, WebGPU's default, binds every pass but train_linear_norm (9),
    // train_norm_bwd_params (10) and train_head_step (kTrainHeadStepBuffers).
    std::uint32_t max_storage_buffers = 8;
};
TrainProgram plan_mlp_training(const TrainConfig& c, const TrainPlanOptions& o = {});

// The optimizer's passes for every trained tensor of `params` (its buffer and "grad." + its name in p),
// with their state buffers (momentum_buffer; exp_avg, exp_avg_sq; Adam's adam.bias_correction and its
// train_adam_bias pass first). A tensor whose momentum buffer p already holds was updated by its gradient's
// pass (fused SGD) and gets none. The mlp's and the cnn's planners share it.
void append_optimizer_passes(TrainProgram& p, const TrainConfig& c, const std::vector<TrainTensor>& params);

// Whether SGD's step is fused into the gradients' passes (c's optimizer is SGD; Adam's state would take a
// pass past 8 storage buffers), and the words those passes take for it: {1, lr, momentum}, or {0, 0, 0}.
// No pass binds more than 8 storage buffers (WebGPU's maxStorageBuffersPerShaderStage is at least 8 on every
// device, its default limit; train_linear_dw and train_norm_pgrad bind exactly 8) but train_linear_norm and
// train_linear_bwd (9), train_norm_bwd_params (10), train_head_step (13) and train_norm_pgrad_dw (16), which the
// mlp takes only where TrainPlanOptions::max_storage_buffers allows them.
bool fused_sgd(const TrainConfig& c);
std::vector<std::uint32_t> sgd_words(const TrainConfig& c);
// The momentum buffer of p's tensor `name` (name + ".momentum_buffer"), created on first use.
int sgd_momentum_buffer(TrainProgram& p, const std::string& name);

// A Linear layer's backward (its parameters named prefix + "weight", prefix + "bias", e.g. "head."): dX into
// `dx` first (none where dx < 0), times f' of the activation act whose output `act_out` is the layer's input,
// then dW and db, with SGD's step fused where fused_sgd (dX reads W before the step). `unused`: the program's
// unused buffer.
// max_storage_buffers ≥ 9, dx ≥ 0 and a layer that fits one workgroup (train_linear_fits_workgroup), with act 0 or
// act_out the layer's input x: dX, dW, db and the step in one pass (train_linear_bwd).
struct LinearBackward {
    std::uint32_t n = 0, in = 0, out = 0, act = 0;
    int dy = -1, x = -1, dx = -1, act_out = -1, unused = -1;
    std::string prefix;
    std::uint32_t max_storage_buffers = 8;
};
void append_linear_backward(TrainProgram& p, const TrainConfig& c, const LinearBackward& l);

// The grid of the Linear kernels (train_linear, train_linear_dx, train_linear_dw), which run one invocation per
// block of 4 × 4 outputs: ⌈rows / 4⌉·⌈cols / 4⌉ invocations (train_linear: N × Out; train_linear_dx: N × In;
// train_linear_dw: Out × (In + 1)). A larger grid is harmless (its extra invocations return at once).
std::array<std::uint32_t, 3> train_linear_groups(std::uint64_t rows, std::uint64_t cols);
// The blocks of 4 × 4 that one workgroup of 64 takes in a fused pass (train_linear_bwd, train_head_step,
// train_norm_pgrad_dw: 4 an invocation), and whether a Linear of n samples, in → out fits it (dX: n × in, dW:
// out × (in + 1)).
inline constexpr std::uint64_t kTrainWorkgroupBlocks = 256;
bool train_linear_fits_workgroup(std::uint64_t n, std::uint64_t in, std::uint64_t out);

// The buffers every model's program starts with, in this order: the data (x_train, y_train, x_val, y_val,
// batches; `features` floats a sample), the step counter, the two logs, an unused binding, `params` and
// the gradients of the trained ones, then the batch (x, labels) and the train_gather pass that fills it;
// "x_val" with room for `eval_grid` points after the validation set.
struct TrainIo {
    int x_val = -1, y_val = -1, step = -1, log = -1, val_log = -1, unused = -1, x = -1, labels = -1;
};
TrainIo begin_training_program(TrainProgram& p, const TrainConfig& c, std::uint32_t features,
                               const std::vector<TrainTensor>& params, std::uint32_t eval_grid = 0);

}  // namespace normlab::train
