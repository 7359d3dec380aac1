// "Copy as PyTorch": the text of a runnable Python script (torch and numpy only) that builds a run's
// model as a PyTorch module with the names normlab saves (layers.{i}.linear.*, layers.{i}.conv.*,
// layers.{i}.norm.*, head.*), loads the run's --save-init and --save-data folders, replays its batches
// with the same optimizer, prints each step's loss and accuracy and the validation set's in eval mode, and,
// given the run's --log CSV, compares every step's loss (exit status 1 past 1e-4 relative). No GPU API:
// normlab-cli writes it with --pytorch-script; the apps can copy the same text.
#pragma once
#include "normlab/train/train_config.hpp"

#include <string>

namespace normlab::train {

// Where the script finds the run's files: absolute, or relative to the script's own folder. An empty
// log_csv: the script compares nothing unless given a log on its command line.
struct TorchScriptPaths {
    std::string init_dir, data_dir, log_csv;
};

// The script for the run of `c` (c valid). Its command line may name other folders:
// `python3 SCRIPT [INIT_DIR DATA_DIR [LOG_CSV]]`.
std::string pytorch_script(const TrainConfig& c, const TorchScriptPaths& paths);

// s as a Python string literal (double quotes; backslashes, quotes and control characters escaped).
std::string python_string(const std::string& s);

}  // namespace normlab::train
