// LineChart drawn with ImGui's draw list (line_chart.hpp).
#include "normlab/views/line_chart.hpp"

#include "normlab/views/colormap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::views {
namespace {

constexpr ImU32 kAxis = IM_COL32(200, 200, 205, 255);
constexpr ImU32 kGrid = IM_COL32(70, 70, 78, 255);
constexpr ImU32 kPanel = IM_COL32(30, 30, 34, 255);

ImU32 series_colour(int i) { return to_imgui(stat_color(i, 8, GroupPalette::OkabeIto)); }

std::string tick_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", std::abs(v) < 1e-12 ? 0.0 : v);
    return buf;
}

struct Range {
    double lo = 0, hi = 1;
};

// The data's range of x (log2 when asked) or y, widened when flat.
Range data_range(const LineChart& c, bool x_axis) {
    Range r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (const auto& s : c.series)
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            double v = x_axis ? s.x[i] : s.y[i];
            if (x_axis && c.log2_x) v = v > 0 ? std::log2(v) : std::numeric_limits<double>::quiet_NaN();
            if (!std::isfinite(v) || !std::isfinite(s.y[i])) continue;
            r.lo = std::min(r.lo, v);
            r.hi = std::max(r.hi, v);
        }
    if (!x_axis && std::isfinite(c.y_min)) r.lo = c.y_min;
    if (!x_axis && std::isfinite(c.y_max)) r.hi = c.y_max;
    if (!std::isfinite(r.lo) || !std::isfinite(r.hi)) return Range{};
    if (r.hi - r.lo < 1e-12) {  // flat: a unit around it, above a fixed minimum
        const bool floor = !x_axis && std::isfinite(c.y_min);
        r.lo -= floor ? 0.0 : 0.5;
        r.hi = r.lo + 1.0;
    }
    return r;
}

// The legend in the top or bottom right corner, whichever covers fewer of the plotted points.
void draw_legend(const LineChart& c, ImDrawList* dl, ImVec2 a, ImVec2 b, const std::vector<ImVec2>& points) {
    const float line = ImGui::GetTextLineHeight();
    float width = 0;
    for (const auto& s : c.series) width = std::max(width, ImGui::CalcTextSize(s.label.c_str()).x);
    const float h = line * (static_cast<float>(c.series.size()) + 0.4f);
    auto covered = [&](ImVec2 lo) {
        return std::count_if(points.begin(), points.end(),
                             [&](ImVec2 p) { return p.x >= lo.x && p.x <= b.x && p.y >= lo.y && p.y <= lo.y + h; });
    };
    ImVec2 box(b.x - width - line * 2.9f, a.y + line * 0.2f);
    const ImVec2 bottom(box.x, b.y - h - line * 0.2f);
    if (covered(bottom) < covered(box)) box = bottom;
    dl->AddRectFilled(box, ImVec2(b.x - line * 0.3f, box.y + h), IM_COL32(20, 20, 24, 220));
    for (std::size_t i = 0; i < c.series.size(); ++i) {
        const float x = box.x + line * 0.3f, y = box.y + line * (static_cast<float>(i) + 0.7f);
        dl->AddLine(ImVec2(x, y), ImVec2(x + line * 1.6f, y), series_colour(c.series[i].colour), 2.5f);
        dl->AddText(ImVec2(x + line * 2.0f, y - line * 0.5f), kAxis, c.series[i].label.c_str());
    }
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int count) {
    const double raw = (hi - lo) / std::max(1, count);
    if (!(raw > 0) || !std::isfinite(raw)) return {lo};
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    std::vector<double> ticks;
    for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) ticks.push_back(t);
    return ticks;
}

void draw_line_chart(const LineChart& c, ImVec2 size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float line = ImGui::GetTextLineHeight();
    ImGui::Dummy(size);
    dl->AddText(ImVec2(origin.x + line * 4.0f, origin.y), kAxis, c.title.c_str());
    const ImVec2 a(origin.x + line * 4.0f, origin.y + line * 1.6f);                    // the plot's top left
    const ImVec2 b(origin.x + size.x - line * 0.8f, origin.y + size.y - line * 3.0f);  // bottom right
    dl->AddRectFilled(a, b, kPanel);
    const Range xr = data_range(c, true), yr = data_range(c, false);
    const double ypad = std::isfinite(c.y_min) && std::isfinite(c.y_max) ? 0.0 : 0.05 * (yr.hi - yr.lo);
    const double xpad = 0.04 * (xr.hi - xr.lo);
    auto px = [&](double v) {
        const double t = (v - (xr.lo - xpad)) / (xr.hi - xr.lo + 2 * xpad);
        return a.x + static_cast<float>(t) * (b.x - a.x);
    };
    auto py = [&](double v) {
        const double t = (v - (yr.lo - ypad)) / (yr.hi - yr.lo + 2 * ypad);
        return b.y - static_cast<float>(t) * (b.y - a.y);
    };
    for (double t : nice_ticks(yr.lo, yr.hi, 5)) {  // y grid and labels
        const std::string s = tick_text(t);
        dl->AddLine(ImVec2(a.x, py(t)), ImVec2(b.x, py(t)), kGrid);
        dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(s.c_str()).x - line * 0.3f, py(t) - line * 0.5f), kAxis,
                    s.c_str());
    }
    std::vector<double> xt;
    if (c.log2_x)
        for (double e = std::ceil(xr.lo - 1e-9); e <= xr.hi + 1e-9; e += 1) xt.push_back(e);
    else
        xt = nice_ticks(xr.lo, xr.hi, 6);
    for (double t : xt) {  // x grid and labels (log2: the power of two itself)
        const std::string s = tick_text(c.log2_x ? std::exp2(t) : t);
        dl->AddLine(ImVec2(px(t), a.y), ImVec2(px(t), b.y), kGrid);
        dl->AddText(ImVec2(px(t) - ImGui::CalcTextSize(s.c_str()).x * 0.5f, b.y + line * 0.2f), kAxis, s.c_str());
    }
    dl->AddRect(a, b, kAxis);
    const ImVec2 xl = ImGui::CalcTextSize(c.x_label.c_str());
    dl->AddText(ImVec2((a.x + b.x - xl.x) * 0.5f, b.y + line * 1.4f), kAxis, c.x_label.c_str());
    dl->PushClipRect(a, b, true);
    std::vector<ImVec2> points;
    for (const auto& s : c.series) {
        const ImU32 col = series_colour(s.colour);
        bool have = false;
        ImVec2 last;
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            const double xv = c.log2_x ? (s.x[i] > 0 ? std::log2(s.x[i]) : NAN) : s.x[i];
            if (!std::isfinite(xv) || !std::isfinite(s.y[i])) {
                have = false;
                continue;
            }
            const ImVec2 p(px(xv), py(s.y[i]));
            points.push_back(p);
            if (have) dl->AddLine(last, p, col, 2.0f);
            if (s.dots) dl->AddCircleFilled(p, 3.5f, col);
            last = p;
            have = true;
        }
    }
    dl->PopClipRect();
    if (!c.series.empty()) draw_legend(c, dl, a, b, points);
}

}  // namespace normlab::views
