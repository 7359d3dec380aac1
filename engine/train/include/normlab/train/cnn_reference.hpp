// The float64 CPU reference of the cnn's training (conv_layers.hpp): one whole step — per layer Conv2d 3×3
// (conv_reference.hpp) → Norm → Act (or → Act → Norm) for every norm (BatchNorm2d with its running statistics,
// LayerNorm and RMS over [C, H, W], InstanceNorm2d, GroupNorm), AvgPool2d(2) after layers 1, 3, 5
// (pool_reference.hpp), the global average pool, the head Linear(C, K), softmax cross-entropy mean, the
// backward and SGD with momentum or Adam with PyTorch's rules (reference_state.hpp) — and the eval-mode
// forward (loss, accuracy) of a set. The norms and the optimizer are the mlp's reference's
// (train_reference.hpp), on the kernels' (set, member) layout of the cnn (conv_model_plan.hpp).
#pragma once
#include "normlab/train/reference_state.hpp"
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_params.hpp"
#include "normlab/train/train_reference.hpp"

#include <string>
#include <vector>

namespace normlab::train {

class CnnReference {
public:
    // c valid with model cnn; init as init_cnn_params(c) names and shapes them.
    CnnReference(const TrainConfig& c, const std::vector<TrainTensor>& init);
    // One training step on the images `batch` of `data` (1×16×16 each); returns the batch's loss and accuracy
    // before the update.
    TrainScore step(const TrainDataSet& data, const std::vector<std::int32_t>& batch);
    // The eval-mode forward over the whole set.
    TrainScore evaluate(const TrainDataSet& data) const;
    // A parameter or buffer (by its PyTorch name), or a gradient of the last step ("grad." + name).
    const std::vector<double>& tensor(const std::string& name) const;
    int steps() const { return steps_; }
    // Per element: whether its value rests on float rounding noise (ReferenceState::noise); a BatchNorm
    // running_mean channel when its layer's conv bias is. Empty: none flagged.
    std::vector<bool> noise_bound(const std::string& name) const;

private:
    struct Layer;
    TrainScore forward(const std::vector<double>& x, const std::vector<std::int32_t>& y, int n, bool train,
                       std::vector<Layer>* keep, std::vector<double>* features, std::vector<double>* dlogits);
    void backward(const std::vector<Layer>& layers, const std::vector<double>& features,
                  const std::vector<double>& dlogits, int n);

    TrainConfig c_;
    ReferenceState t_;
    int steps_ = 0;
};

}  // namespace normlab::train
