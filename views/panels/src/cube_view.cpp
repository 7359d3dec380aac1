#include "normlab/views/cube_view.hpp"

#include "normlab/views/colormap.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>

namespace normlab::views {
namespace {

std::uint32_t shade(const Rgb& c, float k, float alpha = 1.0f) {
    return to_imgui({std::min(1.0f, c[0] * k), std::min(1.0f, c[1] * k), std::min(1.0f, c[2] * k)}, alpha);
}

}  // namespace

void draw_partition_cube(const core::StatLayout& layout, std::optional<std::int64_t> selected, float width,
                         float height) {
    const core::Shape4& s = layout.shape;
    const std::int64_t N = s.n, C = s.c, R = std::min<std::int64_t>(s.h, 6);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const ImVec2 cursor = ImGui::GetCursorScreenPos();
    const float pad = fs * 0.8f;                                  // room for the axis labels
    const float lpad = ImGui::CalcTextSize("H,W").x + fs * 0.5f;  // "H,W" on the left
    const float w = width - pad - lpad, h = height - 2 * pad;
    // Cell sizes: C columns of u, depth steps of (0.55u, 0.4u) per sample, R rows of rh.
    const float fn = static_cast<float>(N), fc = static_cast<float>(C), fr = static_cast<float>(R);
    const float rows_k = std::clamp(4.0f / fr, 0.35f, 1.0f);
    const float u = std::max(2.0f, std::min(w / (fc + 0.55f * fn), h / (fr * rows_k + 0.4f * fn)));
    const float rh = u * rows_k, dx = 0.55f * u, dy = 0.4f * u;
    const float cube_w = fc * u + fn * dx, cube_h = fr * rh + fn * dy;
    const float ox = cursor.x + lpad + (w - cube_w) / 2, oy = cursor.y + pad + (h - cube_h) / 2 + fn * dy;
    // Screen point of (c, r, n): c across, r down, n into the page (up and to the right).
    auto P = [&](float c, float r, float n) { return ImVec2(ox + c * u + n * dx, oy + r * rh - n * dy); };
    auto stat_of = [&](std::int64_t n, std::int64_t c, std::int64_t r) {
        const std::int64_t hrow = r * s.h / R;
        return layout.stat_of(((n * s.c + c) * s.h + hrow) * s.w);
    };
    const ImU32 line = IM_COL32(20, 20, 24, 255);
    const Rgb grey{0.36f, 0.36f, 0.40f};
    auto color = [&](std::int64_t st, float k) {
        if (selected) return st == *selected ? shade(stat_color(st, layout.stat_count), k) : shade(grey, k);
        return shade(stat_color(st, layout.stat_count), k);
    };
    const float lw = std::max(1.0f, u / 14.0f);
    // Top face (r = 0): cells (c, n), drawn back to front.
    for (std::int64_t n = N - 1; n >= 0; --n)
        for (std::int64_t c = 0; c < C; ++c) {
            const float fcx = static_cast<float>(c), fnn = static_cast<float>(n);
            ImVec2 a = P(fcx, 0, fnn), b = P(fcx + 1, 0, fnn), cc = P(fcx + 1, 0, fnn + 1), d = P(fcx, 0, fnn + 1);
            dl->AddQuadFilled(a, b, cc, d, color(stat_of(n, c, 0), 1.15f));
            dl->AddQuad(a, b, cc, d, line, lw);
        }
    // Right face (c = C): cells (n, r).
    for (std::int64_t n = N - 1; n >= 0; --n)
        for (std::int64_t r = 0; r < R; ++r) {
            const float fnn = static_cast<float>(n), frr = static_cast<float>(r);
            ImVec2 a = P(fc, frr, fnn), b = P(fc, frr, fnn + 1), cc = P(fc, frr + 1, fnn + 1), d = P(fc, frr + 1, fnn);
            dl->AddQuadFilled(a, b, cc, d, color(stat_of(n, C - 1, r), 0.7f));
            dl->AddQuad(a, b, cc, d, line, lw);
        }
    // Front face (n = 0): cells (c, r).
    for (std::int64_t c = 0; c < C; ++c)
        for (std::int64_t r = 0; r < R; ++r) {
            const float fcx = static_cast<float>(c), frr = static_cast<float>(r);
            ImVec2 a = P(fcx, frr, 0), b = P(fcx + 1, frr, 0), cc = P(fcx + 1, frr + 1, 0), d = P(fcx, frr + 1, 0);
            dl->AddQuadFilled(a, b, cc, d, color(stat_of(0, c, r), 1.0f));
            dl->AddQuad(a, b, cc, d, line, lw);
        }
    // Outline and axis labels.
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    dl->AddLine(P(0, 0, 0), P(0, fr, 0), ink, 2.0f);
    dl->AddLine(P(0, fr, 0), P(fc, fr, 0), ink, 2.0f);
    dl->AddLine(P(fc, fr, 0), P(fc, fr, fn), ink, 2.0f);
    ImVec2 lc = P(fc / 2, fr, 0);
    dl->AddText(ImVec2(lc.x - fs * 0.3f, lc.y + 2), ink, "C");
    ImVec2 lh = P(0, fr / 2, 0);
    dl->AddText(ImVec2(lh.x - ImGui::CalcTextSize("H,W").x - fs * 0.3f, lh.y - fs / 2), ink, "H,W");
    ImVec2 ln = P(fc, fr, fn / 2);
    dl->AddText(ImVec2(ln.x + fs * 0.3f, ln.y - fs * 0.2f), ink, "N");
    ImGui::Dummy(ImVec2(width, height));
}

void heatmap_beside_cube(HeatmapPanel& heatmap, session::Session& session) {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImGui::BeginChild("heat", ImVec2(avail.x * 0.68f, avail.y), false, ImGuiWindowFlags_NoScrollbar);
    heatmap.draw(session);
    ImGui::EndChild();
    ImGui::SameLine();
    draw_partition_cube(session.layout(), session.selected_stat(), avail.x * 0.32f - ImGui::GetStyle().ItemSpacing.x,
                        std::min(avail.y, avail.x * 0.32f));
}

}  // namespace normlab::views
