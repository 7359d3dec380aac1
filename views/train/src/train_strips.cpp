// TrainStrips (train_strips.hpp): a column of each layer's histogram every few steps, on the device.
#include "normlab/views/train_strips.hpp"

#include "normlab/train/train_layer.hpp"

#include <algorithm>

namespace normlab::views {

TrainStrips make_strips(const train::TrainConfig& c) {
    TrainStrips s;
    s.every = std::max(1, (c.steps + kStripColumns - 1) / kStripColumns);
    s.layers.assign(static_cast<std::size_t>(std::max(0, c.depth)), {});
    return s;
}

int strip_slice(const TrainStrips& s, int done, int steps) {
    if (s.layers.empty()) return steps;  // no strips: the slice is not cut
    const int to_next = s.every - done % s.every;
    return std::max(1, std::min(steps, to_next));
}

bool record_strips(TrainStrips& s, train::TrainDevice& d, const train::TrainConfig& c, int done) {
    if (s.layers.empty() || done <= 0 || (done % s.every != 0 && done != c.steps)) return false;
    if (!s.layers.front().empty() && s.layers.front().back().step >= done) return false;
    for (std::size_t i = 0; i < s.layers.size(); ++i) {
        s.layers[i].push_back({done, d.histogram(train::train_norm_input_name(c, static_cast<int>(i)), kStripBins)});
    }
    return true;
}

}  // namespace normlab::views
