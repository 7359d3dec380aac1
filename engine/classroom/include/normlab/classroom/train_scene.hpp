// TrainScene: the Train view a scene, lesson step or experiment shows — its runs (1 to 4 TrainConfigs,
// written as normlab-cli train's option names over one shared "base") and whether they play. Read and
// written as the view's "train" object (docs/scene-format.md#train); each run is parsed by engine/train's
// one parser of named fields and validated whole (validate_train_config), and the runs must share the
// fields the Train view's runs share (the data, its seeds, the batch, the steps).
#pragma once
#include "normlab/train/train_config.hpp"

#include <string>
#include <vector>

namespace normlab::classroom {

inline constexpr int kMaxSceneTrainRuns = 4;

struct TrainScene {
    std::vector<train::TrainConfig> runs;  // 1 to kMaxSceneTrainRuns
    bool play = false;                     // the runs train once shown
    bool operator==(const TrainScene&) const = default;
};

// train_scene_from_json / train_scene_to_json (src/train_scene_json.hpp) read and write it in views.

}  // namespace normlab::classroom
