// Experiments: the source texts' worked examples and demonstrations as one-click setups,
// each with a one-line explanation in English and Chinese. Each is a JSON file in
// assets/experiments/ (format in docs/scene-format.md), embedded into the binaries at build
// time (cmake/embed_text.cmake).
//   Single:    one State (the seeds' worked examples);
//   Pair:      two configurations of the same data side by side with their difference
//              y_right − y_left (batch independence, the misconceptions);
//   Continuum: GroupNorm with G over the divisors of C, next to LayerNorm and InstanceNorm;
//   TrainEval: BatchNorm running statistics stepped over fresh batches, then eval.
#pragma once
#include "normlab/core/local_text.hpp"
#include "normlab/core/state.hpp"
#include "normlab/classroom/view_settings.hpp"

#include <string>
#include <vector>

namespace normlab::classroom {

enum class ExperimentKind { Single, Pair, Continuum, TrainEval };

struct Experiment {
    std::string id;
    ExperimentKind kind = ExperimentKind::Single;
    core::LocalText title;
    core::LocalText explanation;  // the one line shown with it
    // "literals": numbers the explanation states that are not the engine's results for either
    // side (counts, seeds' values, differences between the sides), as a lesson step's.
    std::vector<std::string> literals;
    core::State state;  // Single/Continuum/TrainEval: the state; Pair: the left side
    ViewSettings view;
    // Pair only.
    core::State right;
    core::LocalText left_label, right_label;
    std::int64_t left_samples = 0;     // left normalizes only the first k samples (0: all)
    bool right_channels_last = false;  // right normalizes x permuted to N×H×W×C
    bool follow_method = false;        // keys 1–5 change the method on both sides
};

// The embedded experiments, in file-name order; throws InputError if one of them is malformed
// (the tests load them all, so a build that passes its tests never does).
const std::vector<Experiment>& experiments();
const Experiment* find_experiment(const std::string& id);

// Parses one experiment file; throws InputError("<name>: <what is wrong>"). Its states are
// checked against the tensors they normalize (a pair's left side with left_samples, its right
// side channels-last when right_channels_last).
Experiment experiment_from_json(const std::string& text, const std::string& name);

// N×C×H×W → the N×H×W×C tensor stored as a Shape4 {N, H, W, C} (channels last).
core::Tensor to_channels_last(const core::Tensor& x);
// The inverse: a {N, H, W, C} tensor back to N×C×H×W.
core::Tensor from_channels_last(const core::Tensor& y);
// The first k samples of x (k clamped to [1, N]).
core::Tensor first_samples(const core::Tensor& x, std::int64_t k);

}  // namespace normlab::classroom
