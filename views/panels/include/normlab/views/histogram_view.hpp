// HistogramView: input and output distributions side by side, for the whole tensor and for
// the selected statistic group, with μ and μ ± σ markers and an adjustable bin count. The
// bins, μ and σ come from the GPU histogram (normlab/ops/histogram.hpp); ImDrawList draws them.
// It draws a ShownTensors' Histograms; the owner computes them again for another bin count.
#pragma once
#include "normlab/session/shown_tensors.hpp"

#include <optional>

namespace normlab::views {

class HistogramView {
public:
    // Presenter mode: two large plots (the selected group's x and y, else the whole tensor's)
    // and no bin slider. Returns the bin count the slider was moved to (nothing if it was not).
    std::optional<std::uint32_t> draw(const session::Histograms& h, std::uint32_t bins, bool presenter = false);
    bool show_bins = true;  // the bin-count slider (off in figures)
    bool on_cpu = false;    // computed by the CPU backend (the caption says CPU, else GPU)
};

}  // namespace normlab::views
