#include "normlab/views/compare_view.hpp"

#include "normlab/views/cube_view.hpp"
#include "normlab/views/explain_panel.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace normlab::views {
namespace {
constexpr core::Method kMethods[4] = {core::Method::Batch, core::Method::Layer, core::Method::Instance,
                                      core::Method::Group};
}

CompareView::CompareView(session::Session& engine, const MakeHeatmapImage& make_image) {
    for (std::size_t i = 0; i < 4; ++i) {
        shown_[i] = std::make_unique<session::ShownValues>(engine);
        views_[i] = std::make_unique<HeatmapPanel>(make_image());
        views_[i]->mode = plan::HeatmapMode::Statistics;
        views_[i]->show_controls = false;
        views_[i]->show_legend = false;
    }
}

void CompareView::follow(const session::Session& main) {
    const core::State& ms = main.state();
    if (seen_generation_ == main.generation() && seen_selection_ == ms.selection) return;
    const core::Shape4& sh = main.x().shape;
    // The main state's G, or the default one (a middle divisor: neither G = 1 nor G = C).
    const std::int64_t g = core::default_groups(sh.c, ms.spec.groups);
    if (seen_generation_ != main.generation() || g != groups_) {
        error_.clear();
        for (std::size_t i = 0; i < 4; ++i) {
            core::State st;
            st.source = ms.source;
            st.spec = core::default_spec(kMethods[i]);
            if (kMethods[i] == core::Method::Group) st.spec.groups = g;
            if (auto err = shown_[i]->compute(st, main.x())) error_ = *err;
        }
        groups_ = g;
    }
    for (auto& s : shown_)
        if (!s->shown().empty()) s->select(ms.selection);
    seen_generation_ = main.generation();
    seen_selection_ = ms.selection;
}

namespace {

// A cell's caption: the module of the tensor's rank (BatchNorm1d/2d/3d, LayerNorm over its axes,
// GroupNorm with its G), statistics × elements, and the selected statistic's μ and σ².
void caption(const session::ShownTensors& s, core::Method m, std::int64_t groups) {
    const core::StatLayout& l = s.layout();
    std::string title = core::method_torch_name(m, l.shape);
    if (m == core::Method::Group) title = "GroupNorm(G=" + std::to_string(groups) + ")";
    if (m == core::Method::Layer) {
        std::string axes;
        for (const auto& a : l.reduced_axes) axes += (axes.empty() ? "" : ",") + a;
        title = "LayerNorm([" + axes + "])";
    }
    // The caption's pieces wrap onto a second line rather than being cut; a piece wider than
    // the tile is drawn smaller.
    const std::string counts =
        strf("%lld × %lld", static_cast<long long>(l.stat_count), static_cast<long long>(l.count()));
    std::string stats;
    if (auto st = s.selected_stat(); st && !s.result().mean.empty()) {
        const auto si = static_cast<std::size_t>(*st);
        stats = strf("μ=%.4g σ²=%.4g", s.result().mean[si], s.result().var[si]);
    }
    const float widest = std::max({ImGui::CalcTextSize(title.c_str()).x, ImGui::CalcTextSize(stats.c_str()).x,
                                   ImGui::CalcTextSize(counts.c_str()).x});
    const float room = ImGui::GetContentRegionAvail().x;
    if (widest > room) ImGui::SetWindowFontScale(std::max(0.5f, room / widest));
    ImGui::TextUnformatted(title.c_str());
    same_line_if_fits(ImGui::CalcTextSize(counts.c_str()).x);
    ImGui::TextDisabled("%s", counts.c_str());
    if (!stats.empty()) {
        same_line_if_fits(ImGui::CalcTextSize(stats.c_str()).x);
        ImGui::TextUnformatted(stats.c_str());
    }
    ImGui::SetWindowFontScale(1.0f);
}

}  // namespace

void CompareView::draw(session::Session& main, bool cube) {
    follow(main);
    const float fs = ImGui::GetFontSize();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "%s", error_.c_str());
    const float gap = ImGui::GetStyle().ItemSpacing.x, vgap = ImGui::GetStyle().ItemSpacing.y;
    // 2×2, four rows or four columns: whichever gives the heatmap tiles the most pixels.
    const core::Shape4& sh = main.x().shape;
    const float chrome = fs * 3.4f;  // caption (up to two lines) and padding inside a cell
    const float heat_frac = cube ? 0.55f : 1.0f;
    int cols = 2;
    float best = 0;
    for (int c : {1, 2, 4}) {
        if (cube && c != 2) continue;  // the cubes need the height of a 2×2 grid
        const int r = 4 / c;
        const float w = ((avail.x - gap * static_cast<float>(c - 1)) / static_cast<float>(c)) * heat_frac;
        const float h = (avail.y - vgap * static_cast<float>(r - 1)) / static_cast<float>(r) - chrome;
        const float cell = TileLayout::fit(sh, std::max(8.0f, w), std::max(8.0f, h)).cell;
        if (cell > best * 1.05f) best = cell, cols = c;
    }
    const int rows = 4 / cols;
    const float cell_w = (avail.x - gap * static_cast<float>(cols - 1)) / static_cast<float>(cols);
    const float cell_h = (avail.y - vgap * static_cast<float>(rows - 1)) / static_cast<float>(rows);
    for (std::size_t i = 0; i < 4; ++i) {
        if (i % static_cast<std::size_t>(cols)) ImGui::SameLine();
        const session::ShownTensors& s = shown_[i]->shown();
        ImGui::BeginChild(static_cast<ImGuiID>(1000 + i), ImVec2(cell_w, cell_h), true, ImGuiWindowFlags_NoScrollbar);
        if (s.empty()) {  // refused from the start (error_ says why)
            ImGui::EndChild();
            continue;
        }
        const core::StatLayout& l = s.layout();
        caption(s, kMethods[i], groups_);
        const float inner_w = ImGui::GetContentRegionAvail().x;
        const float inner_h = ImGui::GetContentRegionAvail().y;
        // With the cube: beside the heatmap or below it, whichever leaves the tiles bigger; the
        // heatmap takes what its tiles need to fill the other side (45–70 %), the cube the rest.
        const float beside_w =
            std::clamp(static_cast<float>(TileLayout::fit(sh, 1e6f, inner_h).width), inner_w * 0.45f, inner_w * 0.6f);
        const float below_h =
            std::clamp(static_cast<float>(TileLayout::fit(sh, inner_w, 1e6f).height), inner_h * 0.45f, inner_h * 0.6f);
        const bool stacked =
            cube && TileLayout::fit(sh, inner_w, below_h).cell > TileLayout::fit(sh, beside_w, inner_h).cell;
        const float heat_w = cube && !stacked ? beside_w : inner_w;
        const float heat_h = stacked ? below_h : inner_h;
        ImGui::BeginChild(static_cast<ImGuiID>(2000 + i), ImVec2(heat_w, heat_h), false, ImGuiWindowFlags_NoScrollbar);
        views_[i]->center = true;
        views_[i]->clicked.reset();
        views_[i]->draw(*shown_[i]);
        if (views_[i]->clicked) main.select(views_[i]->clicked);
        ImGui::EndChild();
        if (cube && stacked) {
            draw_partition_cube(l, s.selected_stat(), inner_w, ImGui::GetContentRegionAvail().y);
        } else if (cube) {
            ImGui::SameLine();
            draw_partition_cube(l, s.selected_stat(), inner_w - heat_w - gap, inner_h);
        }
        ImGui::EndChild();
    }
}

}  // namespace normlab::views
