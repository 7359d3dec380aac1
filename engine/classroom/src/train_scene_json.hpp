// The view's "train" object as JSON (train_scene.hpp), for view_settings.cpp; private to normlab_classroom.
#pragma once
#include "normlab/classroom/train_scene.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace normlab::classroom {

// The "train" object `j` (at key path `where` of the file `name`); InputError "<name>: <where>…" naming
// the run and the key for anything refused.
TrainScene train_scene_from_json(const nlohmann::json& j, const std::string& where, const std::string& name);
// {"base": every field of run 1, "runs": [each run's fields that differ from run 1], "play": …}.
nlohmann::json train_scene_to_json(const TrainScene& t);

}  // namespace normlab::classroom
