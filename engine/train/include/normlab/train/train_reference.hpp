// The float64 CPU reference of the mlp's training: one whole step (forward in training mode,
// softmax cross-entropy mean, backward, torch.optim.SGD with momentum or torch.optim.Adam with their
// exact update rules and defaults, BatchNorm's running statistics: momentum 0.1, unbiased running
// variance) for every norm and both placements, and the eval-mode forward (loss, accuracy) of a set.
// The norms use the same (set, member) layout as the kernels (train_norm_layout.hpp).
#pragma once
#include "normlab/train/reference_state.hpp"
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_params.hpp"

#include <string>
#include <vector>

namespace normlab::train {

struct TrainScore {
    double loss = 0;      // mean cross-entropy
    double accuracy = 0;  // fraction of argmax = label
};

class MlpReference {
public:
    MlpReference(const TrainConfig& c, const std::vector<TrainTensor>& init);
    // One training step on the samples `batch` of `data` (indices into it); returns the batch's
    // loss and accuracy before the update.
    TrainScore step(const TrainDataSet& data, const std::vector<std::int32_t>& batch);
    // The eval-mode forward over the whole set.
    TrainScore evaluate(const TrainDataSet& data) const;
    // A parameter or buffer (by its PyTorch name), or a gradient of the last step ("grad." + name).
    const std::vector<double>& tensor(const std::string& name) const;
    int steps() const { return steps_; }
    // Per element of a parameter or buffer: whether its value rests on float rounding noise. Adam's
    // first steps move a parameter by about lr whatever its gradient's size, so an element whose exact
    // gradient is zero (a Linear's bias before BatchNorm, or before a ReLU active on the whole batch and
    // BatchNorm after it) follows the sign of float32 noise in any float32 run, PyTorch's included: an
    // element is flagged when some Adam step's gradient was under 1e-5 of its tensor's largest, and a
    // BatchNorm running_mean channel when its layer's Linear bias is. Empty: none flagged.
    std::vector<bool> noise_bound(const std::string& name) const;

private:
    struct Activations;
    TrainScore forward(const std::vector<double>& x, const std::vector<std::int32_t>& y, int n, bool train,
                       Activations* keep, std::vector<double>* dlogits);
    void backward(const Activations& a, const std::vector<double>& dlogits, int n);

    TrainConfig c_;
    ReferenceState t_;  // parameters, buffers, gradients, optimizer state
    int steps_ = 0;
};

}  // namespace normlab::train
