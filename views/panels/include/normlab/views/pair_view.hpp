// PairView: an experiment's two configurations of the same data side by side, and their
// difference y_right − y_left as a third heatmap (batch independence, the misconceptions).
// The left side is the main Session (so the statistics and explain panels describe it);
// the right side is normalized on the main Session's engine into a display object of its own
// (ShownValues), as are the right output shown and the difference; for channels-last
// experiments the right output is permuted back to N×C×H×W before it is shown and subtracted. The difference and its
// range come from the heatmap and histogram shaders. In gradient mode (key D, or an experiment
// whose view sets "gradient") each side shows its gradient view instead, ∂y_k/∂x for the same
// selected y_k (one Jacobian row each, from the backward shaders), and no difference.
#pragma once
#include "normlab/views/gradient_view.hpp"
#include "normlab/views/heatmap_panel.hpp"
#include "normlab/session/session.hpp"
#include "normlab/session/shown_values.hpp"

#include "normlab/classroom/experiments.hpp"

#include <memory>

namespace normlab::views {

class PairView {
public:
    // make_image: the images of its heatmaps (three, and two more for the gradient views when first shown).
    PairView(session::Session& engine, MakeHeatmapImage make_image);

    // Sets up the left state in `main` and the right side; returns an error message or nothing.
    std::optional<std::string> start(const classroom::Experiment& e, session::Session& main,
                                     std::optional<core::State> left = std::nullopt);
    // Recomputes the right side and the difference after the main session changed (method keys).
    std::optional<std::string> follow(session::Session& main);
    // gradient: the two sides' gradient views (∂y_k/∂x) instead of y and the difference.
    void draw(session::Session& main, bool gradient = false);
    // max |y_right − y_left| over every compared element (inf if one is NaN/Inf), computed
    // when the panes change.
    double max_abs_difference() const;
    const classroom::Experiment* experiment() const { return exp_; }

private:
    void draw_gradients(session::Session& main);

    session::Session& engine_;
    MakeHeatmapImage make_image_;
    const classroom::Experiment* exp_ = nullptr;
    core::State right_state_;  // the right side's state as normalized (fitted to its tensor)
    // The right side as normalized (its own layout; channels-last when the experiment says so),
    // its output as shown (N×C×H×W, the left's samples) and the difference right − left.
    std::unique_ptr<session::ShownValues> right_, right_shown_, diff_;
    std::unique_ptr<HeatmapPanel> left_view_, right_view_, diff_view_;
    std::unique_ptr<GradientView> left_grad_, right_grad_;  // made when first shown
    std::uint64_t seen_generation_ = ~0ull;
    std::string error_;
    double max_diff_ = 0.0;
};

}  // namespace normlab::views
