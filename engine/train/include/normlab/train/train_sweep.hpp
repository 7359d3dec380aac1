// A sweep: a grid of training runs over a base TrainConfig, one axis per `KEY=V1,V2,…` (norm, placement,
// activation, optimizer, batch, lr, momentum, groups, depth, width, channels, seed, data-seed). The grid is
// parsed, applied and validated whole before any run: an unknown key, a bad value or an invalid combination
// is one InputError line naming the run. The first axis varies slowest. No GPU API: the CLI runs the grid.
#pragma once
#include "normlab/train/train_config.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace normlab::train {

struct SweepAxis {
    std::string key;
    std::vector<std::string> values;  // as given, one per run of the axis
    bool operator==(const SweepAxis&) const = default;
};

struct SweepRun {
    TrainConfig config;
    std::vector<std::string> values;  // the axes' values of this run, in axis order
};

// The most runs one sweep may have.
inline constexpr int kMaxSweepRuns = 256;

// The norms in the Train view's order: its norm combo, its sweep's checkboxes, the order a sweep of the view's
// fields or of a scene (sweep_axes) runs them in (instance: the cnn's only).
inline constexpr std::array<TrainNorm, 6> kViewNorms{TrainNorm::None,  TrainNorm::Batch, TrainNorm::Layer,
                                                     TrainNorm::Group, TrainNorm::Rms,   TrainNorm::Instance};
// The longest list of batch sizes or learning rates the Train view's Sweep tab holds (characters).
inline constexpr std::size_t kSweepListChars = 63;

// The keys a sweep takes, comma separated (for messages and --help).
std::string sweep_keys_text();

// Parses "KEY=V1,V2,…" (InputError: no '=', an unknown key, an empty or repeated value).
SweepAxis parse_sweep_axis(const std::string& arg);

// Sets `key` of c to `value` (InputError for a value that does not parse, or width on the cnn / channels
// on the mlp).
void apply_sweep_value(TrainConfig& c, const std::string& key, const std::string& value);

// Every run of the grid over `base`, each validated (validate_train_config). Throws InputError for a
// repeated key, more than kMaxSweepRuns runs or the first invalid run ("sweep run norm=group, width=6: …").
std::vector<SweepRun> sweep_grid(const TrainConfig& base, const std::vector<SweepAxis>& axes);

// The Sweep tab's fields (the Train view's, a scene's view.train.sweep) as axes: the norms (norm=…, in
// kViewNorms' order; none: no axis), the batch sizes "2,4,8" (batch=…; blank: no axis) and the learning rates
// (lr=…; blank: no axis), spaces dropped. InputError (one line) for a bad list, a list longer than
// kSweepListChars or no axis at all.
std::vector<SweepAxis> sweep_axes(std::vector<std::string> norms, const std::string& batches, const std::string& lrs);

// GroupNorm's G where the Train view picks it: the largest G ≤ 4 that divides c's width (channels).
int default_train_groups(const TrainConfig& c);
// A sweep's base: run config c with G = default_train_groups(c) where c is not GroupNorm's (a sweep of
// norm=group then uses it), as the Train view and a scene's sweep take it.
TrainConfig sweep_base(TrainConfig c);

// "norm=group, width=6": the axes' values of one run.
std::string sweep_run_label(const std::vector<SweepAxis>& axes, const SweepRun& run);

}  // namespace normlab::train
