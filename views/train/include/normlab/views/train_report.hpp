// The Train view's part of both apps' reports (the desktop's --state-file line, the browser's report):
// whether it is shown and plays, its frames and steps per second, and per run its norm, the steps run
// and the loss at the start and now.
#pragma once
#include "normlab/views/train_runs.hpp"

#include <nlohmann/json.hpp>

namespace normlab::views {

// {"shown", "available", "playing", "fps", "steps_per_s", "runs": [{"norm", "steps", "of", "loss_start",
// "loss_now", "acc_now", "val_loss", "val_acc"}]}; loss_start and loss_now are the means of the batch
// losses of the first and the last (up to) 10 steps run, acc_now likewise.
nlohmann::json train_report(const TrainRunSet& runs, bool shown);

}  // namespace normlab::views
