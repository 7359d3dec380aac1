// The mlp's parameters with PyTorch's names and default initialisation (train_params.hpp).
#include "normlab/train/train_params.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/train_data.hpp"

#include <cmath>

namespace normlab::train {

std::uint64_t TrainTensor::elements() const {
    std::uint64_t n = 1;
    for (auto d : shape) n *= static_cast<std::uint64_t>(d);
    return n;
}

int mlp_in_features(const TrainConfig& c, int layer) { return layer == 0 ? 2 : c.width; }
bool norm_has_weight(TrainNorm n) { return n != TrainNorm::None; }
bool norm_has_bias(TrainNorm n) { return n != TrainNorm::None && n != TrainNorm::Rms; }
bool norm_has_running(TrainNorm n) { return n == TrainNorm::Batch; }

namespace {

void add_linear(std::vector<TrainTensor>& out, const std::string& prefix, int in, int outf, TrainRng& rng) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(in));
    TrainTensor w{prefix + ".weight", {outf, in}, {}, true};
    TrainTensor b{prefix + ".bias", {outf}, {}, true};
    for (std::uint64_t i = 0; i < w.elements(); ++i) w.values.push_back(static_cast<float>(rng.uniform(-bound, bound)));
    for (std::uint64_t i = 0; i < b.elements(); ++i) b.values.push_back(static_cast<float>(rng.uniform(-bound, bound)));
    out.push_back(std::move(w));
    out.push_back(std::move(b));
}

}  // namespace

std::vector<TrainTensor> init_mlp_params(const TrainConfig& c) {
    TrainRng rng(c.seed * 4);
    std::vector<TrainTensor> out;
    const auto w = static_cast<std::int64_t>(c.width);
    for (int i = 0; i < c.depth; ++i) {
        const std::string p = "layers." + std::to_string(i);
        add_linear(out, p + ".linear", mlp_in_features(c, i), c.width, rng);
        if (norm_has_weight(c.norm)) out.push_back({p + ".norm.weight", {w}, std::vector<float>(c.width, 1.0f), true});
        if (norm_has_bias(c.norm)) out.push_back({p + ".norm.bias", {w}, std::vector<float>(c.width, 0.0f), true});
        if (norm_has_running(c.norm)) {
            out.push_back({p + ".norm.running_mean", {w}, std::vector<float>(c.width, 0.0f), false});
            out.push_back({p + ".norm.running_var", {w}, std::vector<float>(c.width, 1.0f), false});
        }
    }
    add_linear(out, "head", c.width, c.classes, rng);
    return out;
}

const TrainTensor& find_tensor(const std::vector<TrainTensor>& ts, const std::string& name) {
    for (const auto& t : ts)
        if (t.name == name) return t;
    throw core::InternalError("no training tensor " + name);
}

TrainTensor& find_tensor(std::vector<TrainTensor>& ts, const std::string& name) {
    return const_cast<TrainTensor&>(find_tensor(static_cast<const std::vector<TrainTensor>&>(ts), name));
}

}  // namespace normlab::train
