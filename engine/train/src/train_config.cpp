// TrainConfig's validation and names (train_config.hpp).
#include "normlab/train/train_config.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace normlab::train {
namespace {

template <typename E, std::size_t N>
E parse_name(const std::array<std::pair<const char*, E>, N>& names, const std::string& s, const char* what) {
    std::string all;
    for (const auto& [name, value] : names) {
        if (s == name) return value;
        all += std::string(all.empty() ? "" : ", ") + name;
    }
    throw core::InputError(std::string("unknown ") + what + " '" + s + "' (expected one of " + all + ")");
}

constexpr std::array<std::pair<const char*, TrainNorm>, 6> kNorms{{{"none", TrainNorm::None},
                                                                   {"batch", TrainNorm::Batch},
                                                                   {"layer", TrainNorm::Layer},
                                                                   {"instance", TrainNorm::Instance},
                                                                   {"group", TrainNorm::Group},
                                                                   {"rms", TrainNorm::Rms}}};
constexpr std::array<std::pair<const char*, TrainActivation>, 3> kActs{
    {{"relu", TrainActivation::Relu}, {"tanh", TrainActivation::Tanh}, {"sigmoid", TrainActivation::Sigmoid}}};
constexpr std::array<std::pair<const char*, TrainOptimizer>, 2> kOpts{
    {{"sgd", TrainOptimizer::Sgd}, {"adam", TrainOptimizer::Adam}}};
constexpr std::array<std::pair<const char*, TrainModel>, 2> kModels{
    {{"mlp", TrainModel::Mlp}, {"cnn", TrainModel::Cnn}}};

template <typename E, std::size_t N>
const char* name_of(const std::array<std::pair<const char*, E>, N>& names, E v) {
    for (const auto& [name, value] : names)
        if (value == v) return name;
    return "?";
}

}  // namespace

const char* train_norm_name(TrainNorm n) { return name_of(kNorms, n); }
const char* train_activation_name(TrainActivation a) { return name_of(kActs, a); }
const char* train_optimizer_name(TrainOptimizer o) { return name_of(kOpts, o); }
TrainNorm parse_train_norm(const std::string& s) { return parse_name(kNorms, s, "norm"); }
TrainActivation parse_train_activation(const std::string& s) { return parse_name(kActs, s, "activation"); }
TrainOptimizer parse_train_optimizer(const std::string& s) { return parse_name(kOpts, s, "optimizer"); }
TrainModel parse_train_model(const std::string& s) { return parse_name(kModels, s, "model"); }

int validation_samples(const TrainConfig& c) { return std::max(16, c.samples / 4); }

double train_norm_eps(TrainNorm n) { return n == TrainNorm::Rms ? 1.1920929e-07 : 1e-5; }

void validate_train_config(const TrainConfig& c) {
    const bool mlp = c.model == TrainModel::Mlp;
    const int features = mlp ? c.width : c.channels;
    if (c.depth < 1 || c.depth > 8) throw core::InputError("--depth must be between 1 and 8");
    if (features < 1 || features > 1024)
        throw core::InputError(std::string(mlp ? "--width" : "--channels") + " must be between 1 and 1024");
    if (mlp && c.norm == TrainNorm::Instance)
        throw core::InputError("--norm instance needs --model cnn (InstanceNorm2d has no 2-D-point form)");
    if (c.norm == TrainNorm::Group && (c.groups < 1 || features % c.groups != 0))
        throw core::InputError("num_channels must be divisible by num_groups (--groups " + std::to_string(c.groups) +
                               " does not divide " + std::to_string(features) + ")");
    if (c.batch < 1 || c.batch > 4096) throw core::InputError("--batch must be between 1 and 4096");
    if (c.batch == 1 && c.norm == TrainNorm::Batch)
        throw core::InputError("Expected more than 1 value per channel when training (--batch 1 with --norm batch)");
    if (!(c.lr > 0) || !std::isfinite(c.lr)) throw core::InputError("--lr must be positive");
    if (!(c.momentum >= 0 && c.momentum < 1)) throw core::InputError("--momentum must be in [0, 1)");
    if (mlp && (c.classes < 2 || c.classes > 4)) throw core::InputError("--classes must be between 2 and 4");
    if (!mlp && (c.classes < 2 || c.classes > 6))
        throw core::InputError("--classes must be between 2 and 6 for the cnn");
    if (c.samples < c.classes || c.samples > 100000) throw core::InputError("--samples must be between K and 100000");
    if (c.batch > c.samples) throw core::InputError("--batch must not exceed --samples");
    if (c.steps < 1 || c.steps > 1000000) throw core::InputError("--steps must be between 1 and 1000000");
    if (!(c.noise >= 0 && c.noise <= 10)) throw core::InputError("--noise must be between 0 and 10");
    if (mlp) {
        static const std::array<const char*, 4> kData{"spirals", "circles", "xor", "blobs"};
        if (std::find_if(kData.begin(), kData.end(), [&](const char* d) { return c.data == d; }) == kData.end())
            throw core::InputError("unknown --data '" + c.data +
                                   "' for the mlp (expected spirals, circles, xor, blobs)");
        if ((c.data == "circles" || c.data == "xor") && c.classes != 2)
            throw core::InputError("--data " + c.data + " has 2 classes (--classes 2)");
    } else if (c.data != "textures") {
        throw core::InputError("unknown --data '" + c.data + "' for the cnn (expected textures)");
    }
}

}  // namespace normlab::train
