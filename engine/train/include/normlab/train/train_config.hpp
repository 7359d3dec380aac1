// TrainConfig: what one training run is — the model (mlp or cnn, depth, width or channels,
// activation, norm and its placement), the generated data, the batch order, the optimizer — and
// its validation (validate_train_config: one clear InputError line per bad combination).
#pragma once
#include <cstdint>
#include <string>

namespace normlab::train {

enum class TrainModel { Mlp, Cnn };
enum class TrainActivation { Relu, Tanh, Sigmoid };
enum class TrainNorm { None, Batch, Layer, Instance, Group, Rms };
enum class TrainOptimizer { Sgd, Adam };

struct TrainConfig {
    TrainModel model = TrainModel::Mlp;
    int depth = 2;      // hidden layers
    int width = 32;     // mlp: features per hidden layer (W)
    int channels = 16;  // cnn: channels per conv layer (C)
    TrainActivation activation = TrainActivation::Relu;
    TrainNorm norm = TrainNorm::None;
    int groups = 1;                // GroupNorm's G
    bool norm_after = false;       // placement: Linear → Act → Norm instead of Linear → Norm → Act
    std::string data = "spirals";  // spirals, circles, xor, blobs (mlp); textures (cnn)
    int classes = 2;               // K
    int samples = 512;             // training samples (the validation set has samples / 4, at least 16)
    double noise = 0.1;
    std::uint64_t data_seed = 0;
    int batch = 32;   // B
    int steps = 100;  // T
    double lr = 0.01;
    TrainOptimizer optimizer = TrainOptimizer::Sgd;
    double momentum = 0.9;   // SGD's momentum (0: plain SGD)
    std::uint64_t seed = 0;  // initial parameters

    bool operator==(const TrainConfig&) const = default;
};

// Throws InputError (one line) for a configuration PyTorch or normlab refuses.
void validate_train_config(const TrainConfig& c);

// Names as the CLI writes them ("relu", "batch", …) and their parsers (InputError on an unknown name).
const char* train_norm_name(TrainNorm n);
const char* train_activation_name(TrainActivation a);
const char* train_optimizer_name(TrainOptimizer o);
TrainNorm parse_train_norm(const std::string& s);
TrainActivation parse_train_activation(const std::string& s);
TrainOptimizer parse_train_optimizer(const std::string& s);
TrainModel parse_train_model(const std::string& s);

// The validation set's size for c.samples training samples.
int validation_samples(const TrainConfig& c);
// The norm's epsilon as PyTorch's module has it (1e-5; rms: 1.1920929e-07).
double train_norm_eps(TrainNorm n);

}  // namespace normlab::train
