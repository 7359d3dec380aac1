#include "normlab/views/sync_view.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace normlab::views {
namespace {

const ImVec4 kModeColor[3] = {ImVec4(0.40f, 0.80f, 0.45f, 1), ImVec4(0.45f, 0.65f, 1.00f, 1),
                              ImVec4(1.00f, 0.55f, 0.35f, 1)};  // sync, local, naive
const ImU32 kDeviceColor[4] = {IM_COL32(90, 150, 230, 255), IM_COL32(230, 160, 60, 255), IM_COL32(120, 200, 120, 255),
                               IM_COL32(200, 110, 200, 255)};

// max |a − b| over channel c's elements (all samples, H·W).
double channel_max_diff(const std::vector<float>& a, const std::vector<float>& b, const core::Shape4& s,
                        std::int64_t c) {
    double w = 0;
    const std::int64_t hw = s.hw();
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t i = 0; i < hw; ++i) {
            const auto o = static_cast<std::size_t>((n * s.c + c) * hw + i);
            w = std::max(w, std::abs(static_cast<double>(a[o]) - b[o]));
        }
    return w;
}

// The device boxes' geometry at the current width: up to 8 boxes a row; a narrow box puts σ²
// on a line of its own (two lines per channel).
struct DeviceBoxes {
    std::int64_t cols = 1, rows = 1;
    float w = 0, per_channel = 1;
    // One box's height with `shown` channels of C (a line more when some are left out).
    float box_h(std::int64_t shown, std::int64_t C) const {
        const float line = ImGui::GetTextLineHeightWithSpacing();
        return line * (1.3f + per_channel * static_cast<float>(shown)) + (C > shown ? line : 0.0f);
    }
    // All rows of boxes with `shown` channels each.
    float height(std::int64_t shown, std::int64_t C) const {
        return static_cast<float>(rows) * box_h(shown, C) +
               static_cast<float>(rows - 1) * ImGui::GetStyle().ItemSpacing.y;
    }
};

DeviceBoxes device_boxes(std::int64_t K) {
    DeviceBoxes b;
    b.cols = std::min<std::int64_t>(K, 8);
    b.rows = (K + b.cols - 1) / b.cols;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    b.w = std::max(6 * ImGui::GetFontSize(), (ImGui::GetContentRegionAvail().x - gap * static_cast<float>(b.cols - 1)) /
                                                 static_cast<float>(b.cols));
    b.per_channel = ImGui::CalcTextSize("c0  μ -0.000  σ² 0.000").x + 12 > b.w ? 2.0f : 1.0f;
    return b;
}

// The K devices as boxes: which samples each holds and its per-channel μ, σ² (all channels
// when they fit in `max_h`, else as many as fit and a line saying how many more the table has).
void devices_row(const core::SyncStats& st, const core::Shape4& s, float max_h) {
    const std::int64_t K = st.devices, C = s.c, per = s.n / K;
    const DeviceBoxes boxes = device_boxes(K);
    const float w = boxes.w;
    const bool two_lines = boxes.per_channel > 1;
    std::int64_t shown = C;
    while (shown > 1 && boxes.height(shown, C) > max_h) --shown;
    const float h = boxes.box_h(shown, C);
    for (std::int64_t k = 0; k < K; ++k) {
        if (k % boxes.cols) ImGui::SameLine();
        ImGui::PushID(static_cast<int>(k));
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRect(p, ImVec2(p.x + w, p.y + h), kDeviceColor[k % 4], 4.0f, 0, 2.0f);
        ImGui::BeginChild("dev", ImVec2(w, h), false, ImGuiWindowFlags_NoScrollbar);
        ImGui::SetCursorPos(ImVec2(6, 4));
        if (per == 1)
            ImGui::Text(tr("GPU %lld: n = %lld"), static_cast<long long>(k), static_cast<long long>(k));
        else
            ImGui::Text(tr("GPU %lld: n = %lld..%lld"), static_cast<long long>(k), static_cast<long long>(k * per),
                        static_cast<long long>((k + 1) * per - 1));
        for (std::int64_t c = 0; c < shown; ++c) {
            const auto i = static_cast<std::size_t>(k * C + c);
            ImGui::SetCursorPosX(6);
            if (two_lines) {
                ImGui::Text("c%lld  μ %.3f", static_cast<long long>(c), st.shard_mean[i]);
                ImGui::SetCursorPosX(6);
                ImGui::Text("     σ² %.3f", st.shard_var[i]);
            } else {
                ImGui::Text("c%lld  μ %.3f  σ² %.3f", static_cast<long long>(c), st.shard_mean[i], st.shard_var[i]);
            }
        }
        if (C > shown) {
            ImGui::SetCursorPosX(6);
            const auto more = static_cast<long long>(C - shown);
            const std::string line_text = strf(tr("… %lld more channels in the table"), more);
            ImGui::TextDisabled("%s", ImGui::CalcTextSize(line_text.c_str()).x + 12 <= w
                                          ? line_text.c_str()
                                          : strf("… +%lld", more).c_str());
        }
        ImGui::EndChild();
        ImGui::PopID();
    }
}

// Per channel, max |y naive − y sync| and max |y local − y sync|, scanned once per result
// (session.generation()), not every frame: the scan reads all of y three times.
struct ModeDiffs {
    std::uint64_t generation = ~0ull;
    std::vector<double> naive, local;
};

const ModeDiffs& mode_diffs(const session::Session& session) {
    static ModeDiffs d;  // the app draws one SyncBN view
    if (d.generation == session.generation()) return d;
    const core::SyncStats& st = *session.result().sync;
    const core::Shape4& s = session.x().shape;
    d.naive.clear();
    d.local.clear();
    for (std::int64_t c = 0; c < s.c; ++c) {
        d.naive.push_back(channel_max_diff(st.y_naive, st.y_sync, s, c));
        d.local.push_back(channel_max_diff(st.y_local, st.y_sync, s, c));
    }
    d.generation = session.generation();
    return d;
}

// Per channel, a bar for sync's σ² and one for naive's on one scale: the gap is the naive error.
void variance_bars(const core::SyncStats& st, std::int64_t c, float width) {
    const auto i = static_cast<std::size_t>(c);
    const double top = std::max({st.sync_var[i], st.naive_var[i], 1e-12});
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float bh = ImGui::GetTextLineHeight() * 0.42f;
    const auto bar = [&](float y, double v, const ImVec4& col) {
        dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + static_cast<float>(v / top) * width, y + bh),
                          ImGui::ColorConvertFloat4ToU32(col));
    };
    bar(p.y, st.sync_var[i], kModeColor[0]);
    bar(p.y + bh + 1, st.naive_var[i], kModeColor[2]);
    ImGui::Dummy(ImVec2(width, 2 * bh + 1));
}

// The modes table's headers; the last one is the bars' column.
using ModesHeads = std::array<const char*, 8>;
ModesHeads modes_heads() {
    return {"c",        tr("sync σ²"),    tr("naive σ²"),   tr("error"),
            "var(μ_k)", tr("|Δy| naive"), tr("|Δy| local"), tr("sync vs naive")};
}

float modes_cell_pad() { return 2 * ImGui::GetStyle().CellPadding.x + 2; }

// The width of the modes table's 7 columns of numbers: each as wide as its header or a number.
float modes_width(const ModesHeads& heads) {
    const float number = ImGui::CalcTextSize("-0.0000").x;
    float need = 0;
    for (std::size_t i = 0; i < 7; ++i) need += std::max(ImGui::CalcTextSize(heads[i]).x, number) + modes_cell_pad();
    return need;
}

// Per channel, the three modes side by side: the variances sync and naive apply, the naive
// error beside the variance of the shard means, and how far naive's and local's y lie from sync's.
// `heads`: modes_heads(); `width`: modes_width(heads).
void modes_table(const core::SyncStats& st, const core::Shape4& s, const ModeDiffs& diffs, float height,
                 const ModesHeads& heads, float width) {
    const std::int64_t K = st.devices, C = s.c;
    // The bars only where the panel has room for them, so no header or number is cut (a scroll
    // bar is the last resort).
    const float pad = modes_cell_pad(), bars_w = 5 * ImGui::GetFontSize();
    const bool bars = width + bars_w + pad <= ImGui::GetContentRegionAvail().x;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX;
    if (!ImGui::BeginTable("##sync", bars ? 8 : 7, flags, ImVec2(0, std::max(height, 2 * ImGui::GetFrameHeight()))))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    for (int i = 0; i < (bars ? 8 : 7); ++i) ImGui::TableSetupColumn(heads[static_cast<std::size_t>(i)]);
    ImGui::TableHeadersRow();
    if (ImGui::TableGetColumnFlags(3) & ImGuiTableColumnFlags_IsHovered)
        ImGui::SetTooltip("%s", tr("naive error = sync σ² − naive σ²"));
    if (ImGui::TableGetColumnFlags(4) & ImGuiTableColumnFlags_IsHovered)
        ImGui::SetTooltip("%s", tr("the variance of the devices' means μ_k: equal to the naive error"));
    if (ImGui::TableGetColumnFlags(5) & ImGuiTableColumnFlags_IsHovered)
        ImGui::SetTooltip("%s", tr("max |y naive − y sync|"));
    if (ImGui::TableGetColumnFlags(6) & ImGuiTableColumnFlags_IsHovered)
        ImGui::SetTooltip("%s", tr("max |y local − y sync|"));
    for (std::int64_t c = 0; c < C; ++c) {
        const auto i = static_cast<std::size_t>(c);
        double mean_of_means = 0, var_of_means = 0;
        for (std::int64_t k = 0; k < K; ++k) mean_of_means += st.shard_mean[static_cast<std::size_t>(k * C + c)] / K;
        for (std::int64_t k = 0; k < K; ++k) {
            const double d = st.shard_mean[static_cast<std::size_t>(k * C + c)] - mean_of_means;
            var_of_means += d * d / K;
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%lld", static_cast<long long>(c));
        ImGui::TableNextColumn();
        ImGui::TextColored(kModeColor[0], "%.4f", st.sync_var[i]);
        ImGui::TableNextColumn();
        ImGui::TextColored(kModeColor[2], "%.4f", st.naive_var[i]);
        ImGui::TableNextColumn();
        ImGui::Text("%.4f", st.sync_var[i] - st.naive_var[i]);
        ImGui::TableNextColumn();
        ImGui::Text("%.4f", var_of_means);
        ImGui::TableNextColumn();
        ImGui::Text("%.4f", diffs.naive[i]);
        ImGui::TableNextColumn();
        ImGui::Text("%.4f", diffs.local[i]);
        if (bars) {
            ImGui::TableNextColumn();
            variance_bars(st, c, bars_w);
        }
    }
    ImGui::EndTable();
}

}  // namespace

float draw_sync_view(const session::Session& session, bool table_first) {
    const core::NormResult& r = session.result();
    if (!r.sync) return 0;
    const float top = ImGui::GetCursorPosY();
    const core::SyncStats& st = *r.sync;
    const core::Shape4& s = session.x().shape;
    const std::int64_t K = st.devices, C = s.c;
    ImGui::Text(tr("SyncBN on K = %lld simulated devices, N/K = %lld"), static_cast<long long>(K),
                static_cast<long long>(s.n / K));
    const std::string applied = strf(tr("applied: %s"), tr(core::sync_mode_name(st.mode)));
    same_line_if_fits(ImGui::CalcTextSize(applied.c_str()).x);
    ImGui::TextColored(kModeColor[static_cast<int>(st.mode)], "%s", applied.c_str());
    if (st.from_running) {
        wrapped_text_disabled(tr("eval mode: every mode applies the running statistics, so y is the same"));
    }
    // The table: the header and one row per channel, exactly (a taller table would leave empty
    // rows, and the heatmap above takes whatever room this view leaves), and the horizontal scroll
    // bar where its columns are wider than the panel (presenter mode's large font).
    const float row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    const ModesHeads heads = modes_heads();
    const float width = modes_width(heads);
    const float scroll_bar = width > ImGui::GetContentRegionAvail().x ? ImGui::GetStyle().ScrollbarSize : 0;
    const float table_h = row * (static_cast<float>(C) + 1) + 4 + scroll_bar, gap = ImGui::GetStyle().ItemSpacing.y;
    // Everything shown: the lines above, the table and every channel in the boxes.
    const float full = ImGui::GetCursorPosY() - top + table_h + gap + device_boxes(K).height(C, C) + gap;
    const float avail = ImGui::GetContentRegionAvail().y;
    if (table_first) {  // presenter: the naive error first, the devices below
        modes_table(st, s, mode_diffs(session), std::min(avail * 0.5f, table_h), heads, width);
        devices_row(st, s, ImGui::GetContentRegionAvail().y);
        return full;
    }
    devices_row(st, s, std::max(avail * 0.5f, avail - table_h - gap));
    modes_table(st, s, mode_diffs(session), std::min(ImGui::GetContentRegionAvail().y, table_h), heads, width);
    return full;
}

void heatmap_above_sync_view(HeatmapPanel& heatmap, session::Session& session, bool presenter, float panel_h,
                             SyncArea& area) {
    // The devices and modes get the height they need to show everything (last frame's figure: it
    // depends on the state and the width only), the heatmap the rest (a third of the room at
    // least: below that, the devices show fewer channels).
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    area.chrome = panel_h - avail.y;
    const float below = area.need > 0 ? area.need : avail.y * 0.6f;
    const float heat = std::floor(std::max(avail.y - below - ImGui::GetStyle().ItemSpacing.y, avail.y / 3));
    ImGui::BeginChild("heat", ImVec2(avail.x, heat), false, ImGuiWindowFlags_NoScrollbar);
    heatmap.draw(session);
    ImGui::EndChild();
    ImGui::BeginChild("syncbn", ImVec2(avail.x, 0), false);
    area.need = draw_sync_view(session, presenter);
    ImGui::EndChild();
}

}  // namespace normlab::views
