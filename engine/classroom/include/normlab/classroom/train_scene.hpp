// TrainScene: the Train view a scene, lesson step or experiment shows — its runs (1 to 4 TrainConfigs,
// written as normlab-cli train's option names over one shared "base") and whether they play. Read and
// written as the view's "train" object (docs/scene-format.md#train); each run is parsed by engine/train's
// one parser of named fields and validated whole (validate_train_config), and the runs must share the
// fields the Train view's runs share (the data, its seeds, the batch, the steps). Its "sweep" is the Sweep
// tab's fields (SceneSweep), validated as the grid a sweep of them over its base run would run.
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_sweep.hpp"

#include <optional>
#include <string>
#include <vector>

namespace normlab::classroom {

inline constexpr int kMaxSceneTrainRuns = 4;

// The Sweep tab a scene shows (view.train.sweep): its fields as axes (train::sweep_axes: norm, batch, lr in that
// order), the run (1-based) whose config is the base (train::sweep_base) and whether the sweep starts.
struct SceneSweep {
    std::vector<train::SweepAxis> axes;
    int run = 1;
    bool start = false;
    bool operator==(const SceneSweep&) const = default;
};

struct TrainScene {
    std::vector<train::TrainConfig> runs;  // 1 to kMaxSceneTrainRuns
    bool play = false;                     // the runs train once shown
    std::optional<SceneSweep> sweep;       // the Sweep tab shown with these fields (none: left as it is)
    bool operator==(const TrainScene&) const = default;
};

// The runs of a scene's sweep (its grid: the product of its axes' lengths); 0 without a Train view or a sweep.
inline std::size_t sweep_run_count(const std::optional<TrainScene>& t) {
    if (!t || !t->sweep) return 0;
    std::size_t n = 1;
    for (const auto& axis : t->sweep->axes) n *= axis.values.size();
    return n;
}

// train_scene_from_json / train_scene_to_json (src/train_scene_json.hpp) read and write it in views.

}  // namespace normlab::classroom
