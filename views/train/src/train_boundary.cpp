// The Train view's decision boundaries (train_view.hpp: train_boundaries): per mlp run, the class
// its network gives each point of the grid (the device's eval-mode forward, train_runs.hpp's
// TrainBoundary), shaded by the softmax probability, with training points over it in their class's
// colour and a frame in the run's colour.
#include "normlab/views/colormap.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/views/train_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::views {
namespace {

// The classes' colours (not the runs': those are Okabe–Ito's first four).
constexpr ImU32 kClassColours[6] = {IM_COL32(70, 110, 210, 255), IM_COL32(210, 80, 70, 255),
                                    IM_COL32(70, 170, 90, 255),  IM_COL32(160, 90, 200, 255),
                                    IM_COL32(200, 170, 60, 255), IM_COL32(60, 170, 180, 255)};

ImU32 with_alpha(ImU32 c, float a) {
    return (c & ~IM_COL32_A_MASK) | (static_cast<ImU32>(std::clamp(a, 0.0f, 1.0f) * 255.0f) << IM_COL32_A_SHIFT);
}

// One run's boundary in the square at `p` with side `s`.
void boundary(ImDrawList* dl, const TrainRun& r, ImVec2 p, float s) {
    const TrainBoundary& b = r.boundary;
    dl->AddRectFilled(p, ImVec2(p.x + s, p.y + s), IM_COL32(20, 20, 24, 255));
    const float cell = s / kBoundaryGrid;
    const auto k = static_cast<float>(r.config.classes);
    // Probability 1/K (undecided) dark, 1 at 70 % of the class's colour, in 8 shades; a row's
    // neighbouring cells of one class and shade are one rectangle (fewer vertices for lavapipe).
    auto shade = [&](std::size_t at) {
        const float sure = (b.confidence[at] - 1.0f / k) / (1.0f - 1.0f / k);
        return std::clamp(static_cast<int>(sure * 8.0f), 0, 7);
    };
    for (int j = 0; j < kBoundaryGrid && !b.cls.empty(); ++j) {
        const float y = p.y + s - static_cast<float>(j + 1) * cell;  // y grows upwards
        for (int i = 0; i < kBoundaryGrid;) {
            const auto at = static_cast<std::size_t>(j * kBoundaryGrid + i);
            const int level = shade(at);
            int end = i + 1;
            while (end < kBoundaryGrid && b.cls[at + static_cast<std::size_t>(end - i)] == b.cls[at] &&
                   shade(at + static_cast<std::size_t>(end - i)) == level)
                ++end;
            dl->AddRectFilled(ImVec2(p.x + static_cast<float>(i) * cell, y),
                              ImVec2(p.x + static_cast<float>(end) * cell, y + cell),
                              with_alpha(kClassColours[b.cls[at] % 6], 0.15f + 0.55f * (level + 0.5f) / 8.0f));
            i = end;
        }
    }
    const float w = b.x1 - b.x0, h = b.y1 - b.y0;
    for (std::size_t q = 0; q + 2 < b.points.size(); q += 3) {
        const ImVec2 c(p.x + (b.points[q] - b.x0) / w * s, p.y + s - (b.points[q + 1] - b.y0) / h * s);
        const ImU32 colour = kClassColours[static_cast<int>(b.points[q + 2]) % 6];
        // Squares (8 vertices, no anti-aliased fringe): lavapipe draws hundreds of them a frame.
        dl->AddRectFilled(ImVec2(c.x - 2.5f, c.y - 2.5f), ImVec2(c.x + 2.5f, c.y + 2.5f), IM_COL32(0, 0, 0, 220));
        dl->AddRectFilled(ImVec2(c.x - 1.5f, c.y - 1.5f), ImVec2(c.x + 1.5f, c.y + 1.5f), colour);
    }
    dl->AddRect(p, ImVec2(p.x + s, p.y + s), to_imgui(stat_color(r.colour, kMaxTrainRuns, GroupPalette::OkabeIto)), 0,
                0, 3.0f);
}

}  // namespace

bool train_boundaries_shown(const TrainRunSet& runs) {
    return std::any_of(runs.runs().begin(), runs.runs().end(),
                       [](const TrainRun& r) { return r.config.model == train::TrainModel::Mlp; });
}

void train_boundaries(const TrainRunSet& runs, float width, float height) {
    ImGui::TextUnformatted(tr("decision boundary (the network on a grid, on the device; eval mode)"));
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const auto n = static_cast<float>(std::max<std::size_t>(1, runs.runs().size()));
    const float caption = ImGui::GetTextLineHeightWithSpacing();
    const float s = std::floor(std::max(16.0f, std::min(height - 2 * caption, (width - gap * (n - 1)) / n)));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    for (std::size_t i = 0; i < runs.runs().size(); ++i) {
        const TrainRun& r = runs.runs()[i];
        const ImVec2 at(p.x + static_cast<float>(i) * (s + gap), p.y);
        if (r.config.model == train::TrainModel::Mlp) boundary(dl, r, at, s);
        char label[96];
        if (r.boundary.at_step >= 0)
            std::snprintf(label, sizeof label, tr("%s, step %d"), r.label().c_str(), r.boundary.at_step);
        else
            std::snprintf(label, sizeof label, "%s", r.label().c_str());
        dl->AddText(ImVec2(at.x, at.y + s + 2), ImGui::GetColorU32(ImGuiCol_Text), label);
    }
    ImGui::Dummy(ImVec2(width, s + caption));
}

}  // namespace normlab::views
