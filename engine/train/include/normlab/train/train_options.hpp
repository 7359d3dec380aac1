// A TrainConfig as the CLI's option names and values ("norm" = "batch", "lr" = "0.1", …): one parser
// of a named field for normlab-cli train's sweeps, scenes' "train" runs and lessons, and the writer
// that turns a config back into those names (what a saved scene holds). No GPU API.
#pragma once
#include "normlab/train/train_config.hpp"

#include <string>
#include <utility>
#include <vector>

namespace normlab::train {

// Every name a TrainConfig field has, as normlab-cli train's options without "--", comma separated.
std::string train_option_keys_text();

// Sets field `key` of c from `value` (InputError naming the key for a value that does not parse or a
// key that is not one; width on the cnn and channels on the mlp are refused). Not validated here
// (validate_train_config checks the whole config).
void apply_train_option(TrainConfig& c, const std::string& key, const std::string& value);

// Every field of c as (key, value) in the order of train_option_keys_text; applying them to a default
// TrainConfig gives c back exactly (numbers written with 17 significant digits where needed).
std::vector<std::pair<std::string, std::string>> train_options(const TrainConfig& c);

// Whether a and b share the fields every run of the Train view shares: the model, the data and its
// seed, the classes, samples and noise, the batch, the steps and the initial parameters' seed.
bool same_data_fields(const TrainConfig& a, const TrainConfig& b);

}  // namespace normlab::train
