// A sweep's results as normlab-cli train --sweep and the Train view's sweep report them: each finished
// run's final numbers (the training batch's and the validation set's loss and accuracy after the last step,
// and its steps per second), the summary CSV (the swept keys, then those numbers) and the figure's lines
// (final validation error in % against the batch size, one line per value of the other swept keys, in the
// order of the batch size). One place for both front ends: the same grid gives the same CSV. No GPU API.
#pragma once
#include "normlab/train/train_sweep.hpp"

#include <string>
#include <vector>

namespace normlab::train {

struct SweepResult {
    float train_loss = 0, train_acc = 0, val_loss = 0, val_acc = 0;  // after the last step
    double steps_per_second = 0;
};

// "norm,batch,": the axes' keys, each followed by a comma (the CSVs' first columns).
std::string sweep_keys_prefix(const std::vector<SweepAxis>& axes);
// "group,16,": a run's values, each followed by a comma.
std::string sweep_values_prefix(const SweepRun& run);

// The summary CSV: a header (the keys, then train_loss,train_acc,val_loss,val_acc,steps_per_s) and a row
// per result, results[i] being runs[i]'s (results may be fewer than runs: the first ones).
std::string sweep_summary_csv(const std::vector<SweepAxis>& axes, const std::vector<SweepRun>& runs,
                              const std::vector<SweepResult>& results);

// Whether the axes sweep the batch size (the figure's x axis).
bool sweep_has_batch(const std::vector<SweepAxis>& axes);

// One line of the figure: its label ("norm=group, lr=0.1"; "final validation error" when batch is the only
// axis), the batch sizes and the final validation errors in % (100·(1 − accuracy)), sorted by batch size.
struct SweepSeries {
    std::string label;
    std::vector<double> batch, error;
};

// The figure's lines over the results so far (results[i] being runs[i]'s), in the order their labels first
// appear; none without a batch axis.
std::vector<SweepSeries> sweep_error_series(const std::vector<SweepAxis>& axes, const std::vector<SweepRun>& runs,
                                            const std::vector<SweepResult>& results);

}  // namespace normlab::train
