// A sweep: a grid of training runs over a base TrainConfig, one axis per `KEY=V1,V2,…` (norm, placement,
// activation, optimizer, batch, lr, momentum, groups, depth, width, channels, seed, data-seed). The grid is
// parsed, applied and validated whole before any run: an unknown key, a bad value or an invalid combination
// is one InputError line naming the run. The first axis varies slowest. No GPU API: the CLI runs the grid.
#pragma once
#include "normlab/train/train_config.hpp"

#include <string>
#include <vector>

namespace normlab::train {

struct SweepAxis {
    std::string key;
    std::vector<std::string> values;  // as given, one per run of the axis
};

struct SweepRun {
    TrainConfig config;
    std::vector<std::string> values;  // the axes' values of this run, in axis order
};

// The most runs one sweep may have.
inline constexpr int kMaxSweepRuns = 256;

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

// "norm=group, width=6": the axes' values of one run.
std::string sweep_run_label(const std::vector<SweepAxis>& axes, const SweepRun& run);

}  // namespace normlab::train
