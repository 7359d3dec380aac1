// normlab-cli train --figure (train_figure.cpp): a run's loss and accuracy curves (training and validation),
// or a sweep's final validation error against batch size, one line per value of the other swept keys (the
// Group Normalization paper's Figure 1 in miniature, log2 x axis); drawn by views' chart figure, returned as
// the PNG file's bytes. Only in builds with the figure (NORMLAB_HAVE_FIGURE).
#pragma once
#include "train_run.hpp"
#include "train_sweep.hpp"

#include <string>
#include <vector>

namespace normlab {

// "mlp 3×16 relu, norm batch (before), spirals K=3, batch 32, sgd (momentum 0.9) lr 0.1, 100 steps, seed 0":
// one run's line; the values of the `swept` keys (a sweep's) are shown as "*".
std::string describe_run(const train::TrainConfig& c, const std::vector<std::string>& swept = {});

#ifdef NORMLAB_HAVE_FIGURE
// Checks --figure-size (WxH, figure_size_ok) and returns it; InputError otherwise.
std::pair<int, int> train_figure_size(const std::string& size);

std::string run_figure_png(const gpu::VulkanContext& ctx, const train::TrainConfig& c, const TrainOutcome& o,
                           const TrainArgs& a);
std::string sweep_figure_png(const gpu::VulkanContext& ctx, const SweepPlan& p,
                             const std::vector<TrainOutcome>& outcomes, const TrainArgs& a);
#endif

}  // namespace normlab
