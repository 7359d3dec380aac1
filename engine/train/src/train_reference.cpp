// The mlp's float64 training step (train_reference.hpp), from the references' shared ops
// (train_reference_ops.hpp) and tensors (reference_state.hpp).
#include "normlab/train/train_reference.hpp"

#include "normlab/train/train_norm_layout.hpp"
#include "train_reference_ops.hpp"

#include <utility>

namespace normlab::train {

using reference::NormOut;
using reference::Vec;

struct MlpReference::Activations {
    std::vector<Vec> in, normed_in, act_out;  // per layer: its input, the norm's input, the act's output
    std::vector<NormOut> norm;
    Vec last;
};

MlpReference::MlpReference(const TrainConfig& c, const std::vector<TrainTensor>& init) : c_(c), t_(init) {}

const std::vector<double>& MlpReference::tensor(const std::string& name) const { return t_.at(name); }

TrainScore MlpReference::forward(const Vec& x, const std::vector<std::int32_t>& y, int n, bool train, Activations* keep,
                                 Vec* dlogits) {
    const int w = c_.width, k = c_.classes;
    const bool normed = c_.norm != TrainNorm::None;
    const auto lay = normed ? train_norm_layout(c_.norm, n, w, 1, c_.groups) : TrainNormLayout{};
    Vec h = x;
    for (int i = 0; i < c_.depth; ++i) {
        const std::string q = "layers." + std::to_string(i) + ".";
        if (keep) keep->in.push_back(h);
        Vec z = reference::linear(h, t_[q + "linear.weight"], t_[q + "linear.bias"], n, mlp_in_features(c_, i), w);
        auto do_norm = [&](const Vec& v) {
            if (keep) keep->normed_in.push_back(v);
            auto f = reference::norm_forward(lay, c_.norm, v, &t_[q + "norm.weight"],
                                             norm_has_bias(c_.norm) ? &t_[q + "norm.bias"] : nullptr,
                                             norm_has_running(c_.norm) ? &t_[q + "norm.running_mean"] : nullptr,
                                             norm_has_running(c_.norm) ? &t_[q + "norm.running_var"] : nullptr, train);
            Vec out = f.y;
            if (keep) keep->norm.push_back(std::move(f));
            return out;
        };
        if (normed && !c_.norm_after) z = do_norm(z);
        for (auto& v : z) v = reference::act(c_.activation, v);
        if (keep) keep->act_out.push_back(z);
        if (normed && c_.norm_after) z = do_norm(z);
        h = std::move(z);
    }
    if (keep) keep->last = h;
    const Vec logits = reference::linear(h, t_["head.weight"], t_["head.bias"], n, w, k);
    return reference::softmax_cross_entropy(logits, y, n, k, dlogits);
}

void MlpReference::backward(const Activations& a, const Vec& dlogits, int n) {
    const int w = c_.width, k = c_.classes;
    const bool normed = c_.norm != TrainNorm::None;
    const auto lay = normed ? train_norm_layout(c_.norm, n, w, 1, c_.groups) : TrainNormLayout{};
    t_.zero_grads();
    auto linear_back = [&](const std::string& p, const Vec& x, const Vec& dy, int in, int out, bool want_dx) {
        return reference::linear_backward(x, t_[p + ".weight"], dy, n, in, out, t_["grad." + p + ".weight"],
                                          t_["grad." + p + ".bias"], want_dx);
    };
    Vec dy = linear_back("head", a.last, dlogits, w, k, true);
    const reference::NormOut none;  // a layer without a norm kept no NormOut
    for (int i = c_.depth - 1; i >= 0; --i) {
        const std::string q = "layers." + std::to_string(i) + ".";
        dy = reference::norm_act_backward(c_, lay, normed ? a.norm[i] : none, a.act_out[i], std::move(dy), t_, q);
        dy = linear_back(q + "linear", a.in[i], dy, mlp_in_features(c_, i), w, i > 0);
    }
}

std::vector<bool> MlpReference::noise_bound(const std::string& name) const {
    const auto pos = name.find(".norm.running_mean");
    if (pos == std::string::npos) return t_.noise(name);
    return t_.noise(name.substr(0, pos) + ".linear.bias");
}

TrainScore MlpReference::step(const TrainDataSet& data, const std::vector<std::int32_t>& batch) {
    Vec x;
    std::vector<std::int32_t> y;
    reference::gather(data, batch, x, y);
    Activations a;
    Vec dlogits;
    const int n = static_cast<int>(batch.size());
    const TrainScore s = forward(x, y, n, true, &a, &dlogits);
    backward(a, dlogits, n);
    t_.update(c_, ++steps_);
    return s;
}

TrainScore MlpReference::evaluate(const TrainDataSet& data) const {
    auto& self = const_cast<MlpReference&>(*this);  // eval mode leaves every tensor as it is
    return self.forward(Vec(data.x.begin(), data.x.end()), data.y, data.samples(), false, nullptr, nullptr);
}

}  // namespace normlab::train
