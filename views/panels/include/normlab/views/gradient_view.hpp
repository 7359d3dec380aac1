// GradientView: the backward pass made visible. Jacobian mode: dy is one-hot at the selected
// output y_k, so ∂L/∂x is ∂y_k/∂x, one row of the Jacobian, and its support is exactly y_k's
// statistic group (the caption says which, and counts the non-zero entries). Loss mode: ∂L/∂x
// for a chosen dy (ones, one-hot at the selection, random with a seed), with histograms of dy
// and ∂L/∂x. The gradients come from the engine's backward shaders, run on the main Session's
// engine (Session::backward) for the state it is given and that state's result (a ShownSource:
// the main Session, or a side of a pair); a display object (ShownValues) shows dy as its "x" and
// ∂L/∂x as its "y", so the heatmap and histogram shaders draw them. Its heatmap is a HeatmapPanel
// over an image the caller makes (heatmap_image.hpp: Vulkan on the desktop, WebGPU in the browser).
#pragma once
#include "normlab/views/heatmap_panel.hpp"
#include "normlab/views/histogram_view.hpp"
#include "normlab/session/session.hpp"
#include "normlab/session/shown_values.hpp"

#include <string>

namespace normlab::views {

enum class GradDy { OneHot, Ones, Random };

class GradientView {
public:
    GradientView(session::Session& engine, std::unique_ptr<HeatmapImage> image);

    // `st` is the state whose gradient is shown and `of` its result (x, the statistics, the
    // selected y_k); a click selects in `of`. The Session overloads show the session itself.
    void draw(const core::State& st, session::ShownSource& of);  // controls, caption and the ∂L/∂x heatmap
    void draw(session::Session& main) { draw(main.state(), main); }
    void draw_histograms(session::Session& main, bool presenter);  // dy and ∂L/∂x
    // The backward formula with the selected element's numbers (the Explain panel).
    std::string explain(session::Session& main);
    // Recomputes when `of`, the selection or the dy choice changed; the error or nothing.
    std::optional<std::string> follow(const core::State& st, const session::ShownTensors& of);
    const core::GradResult& result() const { return grad_; }
    std::int64_t nonzero() const { return nonzero_; }

    bool jacobian = true;  // dy one-hot at the selection (∂y_k/∂x); else `dy`
    GradDy dy = GradDy::Ones;
    int seed = 1;

private:
    static std::int64_t selected_offset(const session::ShownTensors& of);

    session::Session* engine_;
    session::ShownValues shown_;  // x = dy, y = ∂L/∂x
    HeatmapPanel view_;
    HistogramView histograms_;
    std::uint64_t seen_generation_ = ~0ull;
    std::int64_t seen_offset_ = -1;
    int seen_choice_ = -1;
    core::GradResult grad_;
    core::Tensor dy_;
    std::int64_t nonzero_ = 0;
    float off_diagonal_ = 0;  // Jacobian mode: max |∂y_k/∂x_i| over i ≠ k (the colormap's range)
    std::string error_;
};

// The support of ∂y_k/∂x in words for `spec` on `layout` (which elements share y_k's statistic).
std::string gradient_support_text(const core::NormSpec& spec, const core::StatLayout& layout);

}  // namespace normlab::views
