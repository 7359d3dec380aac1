// NormSpec: which normalization to run and with which hyper-parameters, with PyTorch's
// defaults, and validate(), which rejects what PyTorch rejects with PyTorch's wording.
#pragma once
#include "normlab/shape.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab {

enum class Method { Batch, Layer, Instance, Group, Rms };
enum class Mode { Train, Eval };

inline constexpr double kDefaultEps = 1e-5;
inline constexpr double kRmsDefaultEps = 1.1920929e-07;  // float32 machine epsilon
inline constexpr double kDefaultMomentum = 0.1;

const char* method_name(Method m);               // "batch", "layer", ...
const char* method_torch_name(Method m);         // "BatchNorm2d", "LayerNorm", ...
std::optional<Method> parse_method(const std::string& name);
const char* mode_name(Mode m);
std::optional<Mode> parse_mode(const std::string& name);

struct NormSpec {
    Method method = Method::Layer;
    std::int64_t groups = 0;                       // group: number of groups G
    std::vector<std::int64_t> normalized_shape;    // layer/rms: trailing dims; empty = [C,H,W]
    std::optional<double> eps;                     // empty: 1e-5 (rms: float32 epsilon)
    bool affine = true;      // batch/group/layer(elementwise_affine)/rms: default on; instance: off
    bool bias = true;        // layer: LayerNorm(bias=...); rms has no bias ever
    Mode mode = Mode::Train; // batch: train uses batch stats, eval running stats
    std::optional<double> momentum = kDefaultMomentum;  // empty: cumulative moving average
    bool track_running_stats = true;                    // batch only

    double effective_eps() const;
    // The normalized_shape actually used for shape s (layer/rms), default [C,H,W].
    std::vector<std::int64_t> effective_normalized_shape(const Shape4& s) const;
    // Whether the statistics come from the input (false only for batch eval with tracking).
    bool uses_batch_stats() const;
    bool has_weight() const { return affine; }
    bool has_bias() const { return affine && method != Method::Rms && (method != Method::Layer || bias); }

    // Throws InputError when spec cannot be applied to shape s; messages match PyTorch's.
    void validate(const Shape4& s) const;
};

// Default spec for a method: instance has affine off, as in PyTorch.
NormSpec default_spec(Method m);

}  // namespace normlab
