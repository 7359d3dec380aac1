// TrainStrips: per hidden layer of a training run, the distribution of its norm's input (the tensor
// Inspect layer opens: train_layer.hpp's read_train_layer) over training — every `every` steps a column of
// kStripBins equal-width bins over that step's batch's [min, max], computed on the run's device by the
// backend's histogram op (TrainDevice::histogram: engine/ops' Histogram on Vulkan, WgpuHistogram on WebGPU;
// only the bins are read back). The Train view draws them as strips (train_strips_view.cpp): x the step,
// y the value, colour the count. No ImGui here.
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_device.hpp"

#include <cstdint>
#include <vector>

namespace normlab::views {

inline constexpr std::uint32_t kStripBins = 32;
inline constexpr int kStripColumns = 100;  // at most about this many columns over a run's steps

struct StripColumn {
    int step = 0;                // after this many steps: the batch of step `step`
    plan::HistogramResult hist;  // kStripBins counts over [hist.min, hist.max], the count, mean and variance
};

struct TrainStrips {
    int every = 1;                                 // a column after every `every`-th step (and the last)
    std::vector<std::vector<StripColumn>> layers;  // per hidden layer, in step order
};

// The strips of a new run of `c`: every = ⌈steps / kStripColumns⌉, no columns.
TrainStrips make_strips(const train::TrainConfig& c);
// `steps` cut so that a slice starting after `done` steps ends at the next column's step (strips without
// layers, a run's that reads none: `steps`).
int strip_slice(const TrainStrips& s, int done, int steps);
// After `done` steps of the run on `d` (nothing queued): a column per layer when `done` is a column's step
// (a multiple of `every`, or the run's last step) not yet recorded; nothing for strips without layers.
// Returns whether it added one.
bool record_strips(TrainStrips& s, train::TrainDevice& d, const train::TrainConfig& c, int done);

}  // namespace normlab::views
