// ReferenceState: the tensors of a float64 training reference (MlpReference, CnnReference) — the parameters and
// buffers by their PyTorch names, each trained one's gradient ("grad." + name), SGD's momentum buffer and Adam's
// moments — and one optimizer step with PyTorch's rules (torch.optim.SGD with momentum, torch.optim.Adam with
// its defaults), flagging the elements Adam drives from rounding noise.
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_params.hpp"

#include <map>
#include <string>
#include <vector>

namespace normlab::train {

class ReferenceState {
public:
    explicit ReferenceState(const std::vector<TrainTensor>& init);
    // A tensor by name (InternalError when absent).
    std::vector<double>& operator[](const std::string& name);
    const std::vector<double>& at(const std::string& name) const;
    // Every gradient set to 0.
    void zero_grads();
    // Step t (1-based) of c's optimizer on every trained tensor from its gradient.
    void update(const TrainConfig& c, int t);
    // Per element: whether some Adam step's gradient was under 1e-5 of its tensor's largest (Adam's first steps
    // move a parameter by about lr whatever its gradient's size, so such an element follows the sign of float
    // rounding noise in any run). Empty: no element flagged or not a trained tensor.
    std::vector<bool> noise(const std::string& name) const;

private:
    std::map<std::string, std::vector<double>> t_;
    std::vector<std::string> trained_;
    std::map<std::string, std::vector<bool>> noise_;
};

}  // namespace normlab::train
