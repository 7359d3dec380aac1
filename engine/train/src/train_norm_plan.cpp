// One training norm layer's passes (train_norm_plan.hpp).
#include "normlab/train/train_norm_plan.hpp"

#include "normlab/train/conv_plan.hpp"
#include "normlab/train/train_params.hpp"

namespace normlab::train {

TrainNormBuffers train_norm_buffers(TrainProgram& p, const std::string& q, int xhat, int stats, int unused, bool sgd) {
    auto find = [&](const std::string& name) {
        const int i = p.find(name);
        return i >= 0 ? i : unused;
    };
    TrainNormBuffers b;
    b.xhat = xhat;
    b.stats = stats;
    b.weight = find(q + "norm.weight");
    b.bias = find(q + "norm.bias");
    b.running_mean = find(q + "norm.running_mean");
    b.running_var = find(q + "norm.running_var");
    b.grad_weight = find("grad." + q + "norm.weight");
    b.grad_bias = find("grad." + q + "norm.bias");
    b.momentum_weight = b.momentum_bias = unused;
    b.sgd = sgd && b.grad_weight != unused;
    if (b.sgd) b.momentum_weight = sgd_momentum_buffer(p, q + "norm.weight");
    if (b.sgd && b.grad_bias != unused) b.momentum_bias = sgd_momentum_buffer(p, q + "norm.bias");
    return b;
}

TrainNormPlan::TrainNormPlan(const TrainConfig& c, const TrainNormLayout& l, const TrainPlanOptions& o)
    : c_(c), l_(l), o_(o) {}

std::uint32_t TrainNormPlan::flags(bool eval) const {
    std::uint32_t f = serial() ? kTrainNormSerial : 0;
    if (c_.norm == TrainNorm::Rms) f |= kTrainNormRms;
    if (norm_has_bias(c_.norm)) f |= kTrainNormHasBias;
    if (c_.norm == TrainNorm::Batch) f |= eval ? kTrainNormUseRunning : kTrainNormUpdateRunning;
    return f;
}

std::array<std::uint32_t, 3> TrainNormPlan::groups() const {
    return serial() ? train_groups_for(l_.sets) : std::array<std::uint32_t, 3>{l_.sets, 1, 1};
}

void TrainNormPlan::forward(std::vector<TrainPass>& out, bool eval, int x, int y, const TrainNormBuffers& b,
                            std::uint32_t act) const {
    auto words = l_.words();
    words.push_back(flags(eval) | act << kTrainNormActShift);
    words.push_back(param_f32(static_cast<float>(train_norm_eps(c_.norm))));
    words.push_back(param_f32(static_cast<float>(kTrainBnMomentum)));
    out.push_back(
        {"train_norm_fwd", words, groups(), {x, y, b.xhat, b.stats, b.weight, b.bias, b.running_mean, b.running_var}});
}

bool TrainNormPlan::fuses_params() const {
    return c_.norm == TrainNorm::Batch && serial() && o_.max_storage_buffers >= 10;
}

bool TrainNormPlan::row_fusable() const {
    const bool row = c_.norm == TrainNorm::Layer || c_.norm == TrainNorm::Rms || c_.norm == TrainNorm::Group;
    return row && serial() && l_.rows > 0 && l_.sets % l_.rows == 0;
}

void TrainNormPlan::linear_forward(std::vector<TrainPass>& out, const std::array<std::uint32_t, 3>& dims,
                                   const std::array<int, 3>& linear, int z, int y, const TrainNormBuffers& b,
                                   std::uint32_t act) const {
    std::vector<std::uint32_t> words{dims[0], dims[1], dims[2]};
    for (std::uint32_t v : l_.words()) words.push_back(v);
    words.push_back(flags(false) | act << kTrainNormActShift);
    words.push_back(param_f32(static_cast<float>(train_norm_eps(c_.norm))));
    out.push_back({"train_linear_norm",
                   words,
                   train_groups_for((std::uint64_t{dims[0]} + 3) / 4),
                   {linear[0], linear[1], linear[2], z, y, b.xhat, b.stats, b.weight, b.bias}});
}

void TrainNormPlan::backward(std::vector<TrainPass>& out, int dy, int dx, const TrainNormBuffers& b,
                             const TrainLinearDx* linear) const {
    auto words = l_.words();
    words.push_back(flags(false));
    if (linear) {
        for (std::uint32_t v : {linear->n, linear->in, linear->out, linear->act}) words.push_back(v);
        out.push_back({"train_norm_linear_dx",
                       words,
                       train_groups_for((std::uint64_t{linear->n} + 3) / 4),
                       {dy, b.xhat, b.stats, b.weight, dx, linear->weight, linear->dx, linear->act_out}});
    } else if (fuses_params()) {  // ∂γ, ∂β (and SGD's step) in the same pass
        for (std::uint32_t v : b.sgd ? sgd_words(c_) : std::vector<std::uint32_t>{0, 0, 0}) words.push_back(v);
        out.push_back({"train_norm_bwd_params",
                       words,
                       groups(),
                       {dy, b.xhat, b.stats, b.weight, dx, b.grad_weight, b.grad_bias, b.bias, b.momentum_weight,
                        b.momentum_bias}});
        return;
    } else {
        out.push_back({"train_norm_bwd", words, groups(), {dy, b.xhat, b.stats, b.weight, dx}});
    }
    const bool bias = norm_has_bias(c_.norm);
    words = {l_.channels, l_.rows, l_.row_stride, l_.channel_stride, l_.inner, bias ? 1u : 0u};
    for (std::uint32_t v : b.sgd ? sgd_words(c_) : std::vector<std::uint32_t>{0, 0, 0}) words.push_back(v);
    out.push_back({"train_norm_pgrad",
                   words,
                   train_groups_for(l_.channels),
                   {dy, b.xhat, b.grad_weight, b.grad_bias, b.weight, b.bias, b.momentum_weight, b.momentum_bias}});
}

}  // namespace normlab::train
