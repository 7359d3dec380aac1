// train_norm_plan: the passes of one training norm layer on its TrainNormLayout, the same for every
// model's planner (the mlp's train_plan.cpp, the cnn's conv_model_plan.cpp): the forward
// (train_norm_fwd, with the activation after it fused) and the backward, ∂x (train_norm_bwd) then ∂γ and ∂β
// (train_norm_pgrad, with SGD's step fused; BatchNorm's one pass, train_norm_bwd_params, where fuses_params),
// with the parameter words and bindings train_plan.hpp lists. Sets of at most
// TrainPlanOptions::serial_norm_members elements run one invocation per set (flag kTrainNormSerial, 64
// sets a workgroup), larger ones one workgroup per set. A row norm after a Linear may take the Linear into its
// forward (linear_forward: one pass instead of two).
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "normlab/train/train_plan.hpp"
#include "normlab/train/train_program.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab::train {

// One norm layer's buffers: the x̂ and statistics its forward saves for its backward, γ, β and the
// running statistics, the gradients of γ and β and their SGD momentum buffers (the program's unused
// buffer where the norm has none); sgd: the backward's train_norm_pgrad also takes SGD's step on γ and β.
struct TrainNormBuffers {
    int xhat = -1, stats = -1, weight = -1, bias = -1, running_mean = -1, running_var = -1;
    int grad_weight = -1, grad_bias = -1, momentum_weight = -1, momentum_bias = -1;
    bool sgd = false;
};

// The buffers of the norm whose parameters are named `q` + "norm.weight" … in p (q: "layers.3."), with
// the forward's x̂ and statistics; `unused` stands for those p does not have. sgd (fused_sgd, for the
// backward): the momentum buffers of its trained γ and β, created in p.
TrainNormBuffers train_norm_buffers(TrainProgram& p, const std::string& q, int xhat, int stats, int unused,
                                    bool sgd = false);

// The Linear before a norm, for the norm's backward to take its input gradient into its pass
// (TrainNormPlan::backward): {N, In, Out}, the act word of the activation whose output `act_out` is the
// Linear's input (f' applied; 0 none), its weight and the gradient dX it writes.
struct TrainLinearDx {
    std::uint32_t n = 0, in = 0, out = 0, act = 0;
    int weight = -1, dx = -1, act_out = -1;
};

class TrainNormPlan {
public:
    // The norm of c (not None) over layout l.
    TrainNormPlan(const TrainConfig& c, const TrainNormLayout& l, const TrainPlanOptions& o);

    // y = f(norm(x)), appended to `out` (the step's passes or the evaluation's), f the activation `act`
    // (train_plan.hpp's act word; 0 none); eval: BatchNorm normalises with its running statistics (else it
    // updates them).
    void forward(std::vector<TrainPass>& out, bool eval, int x, int y, const TrainNormBuffers& b,
                 std::uint32_t act = 0) const;
    // Whether the norm's passes may take the Linear before it in: a row norm (layer, rms, group: sets inside
    // a sample), one invocation per set (serial). The forward (linear_forward) also needs the device to bind
    // train_linear_norm's 9 storage buffers; the backward's train_norm_linear_dx binds 8.
    bool row_fusable() const;
    bool fuses_linear(std::uint32_t max_storage_buffers) const { return row_fusable() && max_storage_buffers >= 9; }
    // Whether the backward takes ∂γ and ∂β (and SGD's step) into ∂x's pass (train_norm_bwd_params): BatchNorm
    // (a set is a channel), one invocation per set (its sums in train_norm_pgrad's order), on a device that binds
    // its 10 storage buffers (TrainPlanOptions::max_storage_buffers).
    bool fuses_params() const;
    // The Linear before the norm and the norm in one pass (train_linear_norm): z = x·Wᵀ + b into `z` (the
    // norm's input, kept), y = f(norm(z)); dims {N, In, Out}, linear {x, W, b}. The step's only (no running
    // statistics: the same pass in eval).
    void linear_forward(std::vector<TrainPass>& out, const std::array<std::uint32_t, 3>& dims,
                        const std::array<int, 3>& linear, int z, int y, const TrainNormBuffers& b,
                        std::uint32_t act) const;
    // dx from dy, then the gradients of γ and β (with SGD's step where b.sgd), appended to `out` (one pass where
    // fuses_params). With
    // `linear` (row_fusable only): the Linear's dX from dx in the same pass (train_norm_linear_dx), before
    // ∂γ's SGD step as in two passes.
    void backward(std::vector<TrainPass>& out, int dy, int dx, const TrainNormBuffers& b,
                  const TrainLinearDx* linear = nullptr) const;

    const TrainNormLayout& layout() const { return l_; }
    // One invocation per set (sets of at most serial_norm_members elements).
    bool serial() const { return l_.members <= o_.serial_norm_members; }
    // The kernels' flags word (train_plan.hpp's kTrainNorm… bits).
    std::uint32_t flags(bool eval) const;

private:
    std::array<std::uint32_t, 3> groups() const;  // a workgroup per set, or 64 sets a workgroup
    const TrainConfig& c_;
    TrainNormLayout l_;
    TrainPlanOptions o_;
};

}  // namespace normlab::train
