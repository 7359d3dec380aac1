// LineChart: series of (x, y) points as lines with dots, against a linear or log2 x axis, with ticks,
// a title, the x axis's name and a legend, drawn with ImGui's draw list (Okabe–Ito colours, colormap.hpp). The training
// figure (chart_figure.hpp) draws its curves with it; any panel can.
#pragma once
#include <imgui.h>

#include <limits>
#include <string>
#include <vector>

namespace normlab::views {

struct ChartSeries {
    std::string label;
    std::vector<double> x, y;  // non-finite y: a gap
    int colour = 0;            // index into the Okabe–Ito palette
    bool dots = false;         // a dot on every point
};

struct LineChart {
    std::string title, x_label;                               // the title names the y axis and its unit
    bool log2_x = false;                                      // x > 0 only; ticks at powers of two
    double y_min = std::numeric_limits<double>::quiet_NaN();  // NaN: from the data
    double y_max = std::numeric_limits<double>::quiet_NaN();
    std::vector<ChartSeries> series;
};

// Draws `chart` in a size.x × size.y rectangle at the cursor and moves the cursor past it.
void draw_line_chart(const LineChart& chart, ImVec2 size);

// About `count` round tick values (1, 2 or 5 × 10^k apart) covering [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int count);

}  // namespace normlab::views
