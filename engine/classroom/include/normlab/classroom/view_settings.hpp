// ViewSettings: how the app shows a State (heatmap mode, colormaps, compare view, cube,
// gradient view, active experiment, the Train view and its runs). Scenes and lesson steps store them as the "view"
// object; the engine only parses and checks them, so a typo in a lesson file is reported, not ignored.
#pragma once
#include "normlab/classroom/train_scene.hpp"

#include <optional>
#include <string>

namespace normlab::classroom {

struct ViewSettings {
    std::string heatmap = "stats";       // input | output | diff | stats
    std::string colormap = "diverging";  // diverging | viridis | cividis
    std::string palette = "okabe-ito";   // okabe-ito | hues: colors of statistic groups (JSON key "groups")
    bool compare = false;                // batch/layer/instance/group side by side
    bool cube = false;                   // the N, C, H·W cube drawing of the partition
    bool gradient = false;               // the gradient view (the backward pass)
    std::string experiment;              // an experiment id (experiments.hpp), "" for none
    std::optional<TrainScene> train;     // the Train view shown with these runs (none: left as it is)

    bool operator==(const ViewSettings&) const = default;
};

// Parses a view object (JSON text); unknown keys and bad values throw InputError naming
// the key. "" gives the defaults.
ViewSettings parse_view(const std::string& json_text, const std::string& where);
std::string view_to_json(const ViewSettings& v);

}  // namespace normlab::classroom
