// CompareView: the same tensor under BatchNorm, LayerNorm([C,H,W]), InstanceNorm and
// GroupNorm side by side in statistics mode, each normalized by the shaders on the main
// Session's engine into a display object of its own (ShownValues); one selected element
// highlights its group in all four at once. Optionally each
// with its N, C, H·W cube (cube_view.hpp). GroupNorm uses the main state's G (or
// default_groups' middle divisor of C), so the continuum experiment can move it. Its four
// heatmaps are HeatmapPanels over images the caller makes (Vulkan on the desktop, WebGPU and WebGL
// in the browser: heatmap_image.hpp).
#pragma once
#include "normlab/views/heatmap_panel.hpp"
#include "normlab/session/session.hpp"
#include "normlab/session/shown_values.hpp"

#include <array>
#include <memory>

namespace normlab::views {

class CompareView {
public:
    CompareView(session::Session& engine, const MakeHeatmapImage& make_image);

    // Renormalizes when the main session changed (tensor, G or selection).
    void follow(const session::Session& main);
    // Draws the 2×2 grid into the current window; a click selects in `main` and all four.
    void draw(session::Session& main, bool cube);
    // The four results in order batch, layer, instance, group (tests, continuum check).
    const session::ShownTensors& shown(int i) const { return shown_[static_cast<std::size_t>(i)]->shown(); }
    std::int64_t groups() const { return groups_; }

private:
    std::array<std::unique_ptr<session::ShownValues>, 4> shown_;
    std::array<std::unique_ptr<HeatmapPanel>, 4> views_;
    std::uint64_t seen_generation_ = ~0ull;
    std::optional<core::Index4> seen_selection_;
    std::int64_t groups_ = 1;
    std::string error_;
};

}  // namespace normlab::views
