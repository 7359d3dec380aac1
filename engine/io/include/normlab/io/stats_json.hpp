// The statistics of one normalization as a JSON document: what `normlab-cli --stats` writes
// and the app exports, from one function so the two cannot drift apart.
#pragma once
#include "normlab/core/norm_params.hpp"

#include <optional>
#include <string>

namespace normlab::io {

// max_error: the max |y − reference| if the float64 check ran. Non-finite numbers are null.
std::string stats_json(const core::NormSpec& spec, const core::NormResult& result, const std::string& device,
                       std::optional<double> max_error);

}  // namespace normlab::io
