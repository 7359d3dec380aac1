// train_norm_plan: the passes of one training norm layer on its TrainNormLayout, the same for every
// model's planner (the mlp's train_plan.cpp, the cnn's conv_model_plan.cpp): the forward
// (train_norm_fwd, with the activation after it fused) and the backward, ∂x (train_norm_bwd) then ∂γ and ∂β
// (train_norm_pgrad, with SGD's step fused), with the
// parameter words and bindings train_plan.hpp lists. Sets of at most
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

class TrainNormPlan {
public:
    // The norm of c (not None) over layout l.
    TrainNormPlan(const TrainConfig& c, const TrainNormLayout& l, const TrainPlanOptions& o);

    // y = f(norm(x)), appended to `out` (the step's passes or the evaluation's), f the activation `act`
    // (train_plan.hpp's act word; 0 none); eval: BatchNorm normalises with its running statistics (else it
    // updates them).
    void forward(std::vector<TrainPass>& out, bool eval, int x, int y, const TrainNormBuffers& b,
                 std::uint32_t act = 0) const;
    // Whether linear_forward applies: a row norm (layer, rms, group: sets inside a sample), one invocation
    // per set (serial), and the device binds train_linear_norm's 9 storage buffers.
    bool fuses_linear(std::uint32_t max_storage_buffers) const;
    // The Linear before the norm and the norm in one pass (train_linear_norm): z = x·Wᵀ + b into `z` (the
    // norm's input, kept), y = f(norm(z)); dims {N, In, Out}, linear {x, W, b}. The step's only (no running
    // statistics: the same pass in eval).
    void linear_forward(std::vector<TrainPass>& out, const std::array<std::uint32_t, 3>& dims,
                        const std::array<int, 3>& linear, int z, int y, const TrainNormBuffers& b,
                        std::uint32_t act) const;
    // dx from dy, then the gradients of γ and β (with SGD's step where b.sgd), appended to `out`.
    void backward(std::vector<TrainPass>& out, int dy, int dx, const TrainNormBuffers& b) const;

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
