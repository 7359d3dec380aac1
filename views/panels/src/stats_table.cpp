#include "normlab/views/stats_table.hpp"

#include "normlab/views/colormap.hpp"

#include "normlab/views/i18n.hpp"

#include <imgui.h>

#include <string>

namespace normlab::views {

namespace {

// Which columns the table has: RMSNorm's, eval mode's (the running statistics as stored:
// nothing was pooled or divided by n) or the mean and variance of every other run.
enum class Columns { Rms, Running, Moments };

Columns columns_of(const session::Session& session) {
    if (session.state().spec.method == core::Method::Rms) return Columns::Rms;
    return session.result().stats_from_running ? Columns::Running : Columns::Moments;
}

void caption(const core::NormResult& r) {
    const auto stats = static_cast<long long>(r.layout.stat_count);
    if (r.stats_from_running)
        ImGui::TextDisabled(tr("%lld channels, eval: the running statistics as stored (nothing computed from this "
                               "batch)"),
                            stats);
    else
        ImGui::TextDisabled(tr("%lld statistics over %lld elements each%s"), stats,
                            static_cast<long long>(r.elements_per_stat()), "");
}

void setup_columns(Columns c) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#");
    if (c != Columns::Running) ImGui::TableSetupColumn(tr("count"));
    if (c == Columns::Rms) {
        ImGui::TableSetupColumn("mean(x²)");
        ImGui::TableSetupColumn("1/√(mean(x²)+ε)");
    } else if (c == Columns::Running) {
        ImGui::TableSetupColumn("running_mean");
        ImGui::TableSetupColumn("running_var");
        ImGui::TableSetupColumn("1/√(running_var+ε)");
    } else {
        ImGui::TableSetupColumn("μ");
        ImGui::TableSetupColumn(tr("σ² biased"));
        ImGui::TableSetupColumn(tr("σ² unbiased"));
        ImGui::TableSetupColumn("1/√(σ²+ε)");
    }
    ImGui::TableHeadersRow();
}

// The numbers of statistic i after its index column, one cell each.
void value_cells(const core::NormResult& r, Columns c, std::size_t i) {
    auto cell = [](double v) {
        ImGui::TableNextColumn();
        ImGui::Text("%.5g", v);
    };
    if (c == Columns::Running) {
        cell(r.running_mean[i]);
        cell(r.running_var[i]);
        cell(r.rstd[i]);
        return;
    }
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(r.elements_per_stat()));
    if (c == Columns::Rms) {
        cell(r.mean_square[i]);
        cell(r.rstd[i]);
        return;
    }
    cell(r.mean[i]);
    cell(r.var[i]);
    ImGui::TableNextColumn();
    // The unbiased variance is the shader's biased one rescaled by n/(n−1).
    if (r.elements_per_stat() > 1)
        ImGui::Text("%.5g", r.unbiased_var(i));
    else
        ImGui::TextDisabled("n/a (n=1)");
    cell(r.rstd[i]);
}

}  // namespace

void StatsTable::draw(session::Session& session) {
    const core::NormResult& r = session.result();
    const auto sel = session.selected_stat();
    const bool scroll = sel != last_selected_;
    last_selected_ = sel;
    caption(r);
    const Columns c = columns_of(session);
    const int cols = c == Columns::Moments ? 6 : 4;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("stats", cols, flags)) return;
    setup_columns(c);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(r.layout.stat_count));
    if (scroll && sel) clipper.ForceDisplayRangeByIndices(static_cast<int>(*sel), static_cast<int>(*sel) + 1);
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // The index with the statistic's colour swatch; a click selects the statistic.
            ImVec2 p = ImGui::GetCursorScreenPos();
            const float sz = ImGui::GetTextLineHeight() - 4;
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + sz, p.y + 2 + sz),
                                                      to_imgui(stat_color(row, r.layout.stat_count)));
            ImGui::Dummy(ImVec2(sz + 2, sz));
            ImGui::SameLine();
            const bool selected = sel && *sel == row;
            const std::string label = std::to_string(row);
            if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns))
                session.select_statistic(row);
            if (selected && scroll) ImGui::SetScrollHereY(0.5f);
            value_cells(r, c, static_cast<std::size_t>(row));
        }
    }
    ImGui::EndTable();
}

}  // namespace normlab::views
