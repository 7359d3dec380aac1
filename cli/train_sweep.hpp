// normlab-cli train --sweep KEY=V1,V2,… (train_sweep.cpp): the grid (engine/train's train_sweep.hpp, all
// validated before any run) run one after another on one device, a table printed as the runs finish, and
// after the last one the summary CSV, every run's log in one CSV and the figure (final validation error
// against batch size, one line per value of the other keys).
#pragma once
#include "train_run.hpp"

#include "normlab/train/sweep_summary.hpp"
#include "normlab/train/train_sweep.hpp"

#include <string>
#include <vector>

namespace normlab {

struct SweepPlan {
    std::vector<train::SweepAxis> axes;
    std::vector<train::SweepRun> runs;
};

// The axes of a.sweep and the validated grid over `base`; throws InputError (one line) for a bad sweep,
// an option that writes one run's files, or a figure without a batch axis.
SweepPlan plan_sweep(const TrainArgs& a, const train::TrainConfig& base);

// Where the summary CSV goes: --sweep-csv, else NAME-sweep.csv beside --log NAME.csv, else nowhere ("").
std::string sweep_csv_path(const TrainArgs& a);

// Each outcome's final numbers (the summary CSV's and the figure's: engine/train's sweep_summary.hpp).
std::vector<train::SweepResult> sweep_results(const std::vector<TrainOutcome>& outcomes);

// Runs every run of `plan` on ctx and writes the files. Returns the exit status.
int run_train_sweep(const gpu::VulkanContext& ctx, const TrainArgs& a, const SweepPlan& plan);

}  // namespace normlab
