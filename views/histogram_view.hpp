// HistogramView: input and output distributions side by side, for the whole tensor and for
// the selected statistic group, with μ and μ ± σ markers and an adjustable bin count. The
// bins, μ and σ come from the GPU histogram (normlab/histogram.hpp); ImDrawList draws them.
#pragma once
#include "normlab/session.hpp"

namespace normlab::app {

class HistogramView {
public:
    // Presenter mode: two large plots (the selected group's x and y, else the whole tensor's)
    // and no bin slider.
    void draw(Session& session, bool presenter = false);
    bool show_bins = true;  // the bin-count slider (off in figures)
};

}  // namespace normlab::app
