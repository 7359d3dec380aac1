// The float64 references' tensors and optimizer step (reference_state.hpp).
#include "normlab/train/reference_state.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/train_plan.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::train {

ReferenceState::ReferenceState(const std::vector<TrainTensor>& init) {
    for (const auto& t : init) {
        t_[t.name] = std::vector<double>(t.values.begin(), t.values.end());
        if (!t.trained) continue;
        trained_.push_back(t.name);
        t_["grad." + t.name] = std::vector<double>(t.values.size());
        for (const char* s : {".momentum_buffer", ".exp_avg", ".exp_avg_sq"})
            t_[t.name + s] = std::vector<double>(t.values.size());
    }
}

std::vector<double>& ReferenceState::operator[](const std::string& name) {
    const auto it = t_.find(name);
    if (it == t_.end()) throw core::InternalError("reference has no tensor " + name);
    return it->second;
}

const std::vector<double>& ReferenceState::at(const std::string& name) const {
    const auto it = t_.find(name);
    if (it == t_.end()) throw core::InternalError("reference has no tensor " + name);
    return it->second;
}

void ReferenceState::zero_grads() {
    for (const auto& name : trained_) std::fill(t_["grad." + name].begin(), t_["grad." + name].end(), 0.0);
}

std::vector<bool> ReferenceState::noise(const std::string& name) const {
    const auto it = noise_.find(name);
    return it == noise_.end() ? std::vector<bool>{} : it->second;
}

void ReferenceState::update(const TrainConfig& c, int t) {
    for (const auto& name : trained_) {
        std::vector<double>& p = t_[name];
        const std::vector<double>& g = t_["grad." + name];
        if (c.optimizer == TrainOptimizer::Sgd) {
            std::vector<double>& b = t_[name + ".momentum_buffer"];
            for (std::size_t e = 0; e < p.size(); ++e) {
                b[e] = c.momentum * b[e] + g[e];
                p[e] -= c.lr * b[e];
            }
            continue;
        }
        double largest = 0;
        for (double v : g) largest = std::max(largest, std::abs(v));
        auto& flags = noise_[name];
        flags.resize(g.size(), false);
        for (std::size_t e = 0; e < g.size(); ++e)
            if (std::abs(g[e]) < 1e-5 * largest) flags[e] = true;
        std::vector<double>& m = t_[name + ".exp_avg"];
        std::vector<double>& v = t_[name + ".exp_avg_sq"];
        const double bc1 = 1 - std::pow(kAdamBeta1, t), bc2 = 1 - std::pow(kAdamBeta2, t);
        for (std::size_t e = 0; e < p.size(); ++e) {
            m[e] = kAdamBeta1 * m[e] + (1 - kAdamBeta1) * g[e];
            v[e] = kAdamBeta2 * v[e] + (1 - kAdamBeta2) * g[e] * g[e];
            p[e] -= (c.lr / bc1) * m[e] / (std::sqrt(v[e]) / std::sqrt(bc2) + kAdamEps);
        }
    }
}

}  // namespace normlab::train
