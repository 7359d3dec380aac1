// NormSpec: which normalization to run and with which hyper-parameters, with PyTorch's
// defaults, and validate(), which rejects what PyTorch rejects with PyTorch's wording.
#pragma once
#include "normlab/core/shape.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab::core {

enum class Method { Batch, Layer, Instance, Group, Rms };
enum class Mode { Train, Eval };
// SyncBN on simulated devices: how the K shards' statistics become the ones applied.
//   Sync: (count, mean, M2) all-reduced exactly (Chan), i.e. BatchNorm over the whole batch;
//   Local: each shard normalized with its own statistics (data parallel without SyncBN);
//   Naive: the mean of the shard means and the mean of the shard (biased) variances.
enum class SyncMode { Sync, Local, Naive };

inline constexpr double kDefaultEps = 1e-5;
inline constexpr double kRmsDefaultEps = 1.1920929e-07;  // float32 machine epsilon
inline constexpr double kDefaultMomentum = 0.1;

// The one table of the five methods, in the order every list shows them (the app's keys 1–5,
// its method buttons and combo, --norm's help, the soak driver, the tests).
struct MethodInfo {
    Method id;
    const char* name;        // "batch": --norm, scenes, the stats JSON
    const char* torch_name;  // "BatchNorm2d": PyTorch's module
    const char* label;       // "BatchNorm": the app's buttons
};
const std::vector<MethodInfo>& methods();
const MethodInfo& method_info(Method m);
// The names joined: "batch, layer, instance, group or rms"; (" | ", " | ") for a help text.
std::string method_names(const std::string& sep = ", ", const std::string& last = " or ");

const char* method_name(Method m);        // "batch", "layer", ...
const char* method_torch_name(Method m);  // "BatchNorm2d", "LayerNorm", ...
// The module for a tensor of shape s: BatchNorm1d / InstanceNorm1d on a 2-D or 3-D tensor,
// BatchNorm3d / InstanceNorm3d on a 5-D one.
const char* method_torch_name(Method m, const Shape4& s);
// "" when normlab takes a tensor of these dims under method m (2 to 5 dims; 1 under layer/rms),
// else the refusal: PyTorch's text where PyTorch refuses it ("expected 2D or 3D input (got 1D
// input)", the module of the nearest rank), normlab's own where PyTorch would take it (6-D).
std::string rank_error(Method m, const std::vector<std::int64_t>& dims);
// Throws InputError(rank_error(m, dims)) unless it is "".
void check_rank(Method m, const std::vector<std::int64_t>& dims);
std::optional<Method> parse_method(const std::string& name);
const char* mode_name(Mode m);
std::optional<Mode> parse_mode(const std::string& name);
const char* sync_mode_name(SyncMode m);  // "sync", "local", "naive"
std::optional<SyncMode> parse_sync_mode(const std::string& name);

struct NormSpec {
    Method method = Method::Layer;
    std::int64_t groups = 0;                     // group: number of groups G
    std::vector<std::int64_t> normalized_shape;  // layer/rms: trailing dims, up to all; empty = all but N (1-D: [D])
    std::optional<double> eps;                   // empty: 1e-5 (rms: float32 epsilon)
    bool affine = true;                          // batch/group/layer(elementwise_affine)/rms: default on; instance: off
    bool bias = true;                            // layer: LayerNorm(bias=...); rms has no bias ever
    Mode mode = Mode::Train;                     // batch: train uses batch stats, eval running stats
    std::optional<double> momentum = kDefaultMomentum;  // empty: cumulative moving average
    bool track_running_stats = true;                    // batch only
    std::int64_t sync_devices = 0;                      // batch: K simulated devices (shards of N/K); 0: none
    SyncMode sync_mode = SyncMode::Sync;                // batch with sync_devices

    double effective_eps() const;
    // The normalized_shape actually used for shape s (layer/rms), default every dim but N ([D] at rank 1).
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

// The G that a switch to GroupNorm starts with, for C = `channels`: `current` when it is a
// valid G for C (> 0 and divides C, e.g. a G the state already holds); otherwise the middle
// divisor of C (the ((k - 1) / 2)-th of its k divisors in increasing order), which is neither
// LayerNorm's G = 1 nor InstanceNorm's G = C whenever C has more than two divisors
// (C = 6: 2, 12: 3, 64: 8); a C with two divisors or fewer (1, a prime) gets G = C.
// PyTorch has no default G; this is normlab's, for the app's method switch and compare view.
std::int64_t default_groups(std::int64_t channels, std::int64_t current = 0);

}  // namespace normlab::core
