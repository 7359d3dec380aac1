#include "stats_table.hpp"

#include "colormap.hpp"

#include "i18n.hpp"

#include <imgui.h>

#include <string>

namespace normlab::app {

void StatsTable::draw(Session& session) {
    const NormResult& r = session.result();
    const StatLayout& l = r.layout;
    const bool rms = session.state().spec.method == Method::Rms;
    const auto sel = session.selected_stat();
    const bool scroll = sel != last_selected_;
    last_selected_ = sel;
    const double n = static_cast<double>(r.stat_count());  // SyncBN local mode: a shard's elements
    if (r.stats_from_running)
        ImGui::TextDisabled(tr("%lld channels, eval: the running statistics as stored (nothing computed from this "
                               "batch)"),
                            static_cast<long long>(l.stat_count));
    else
        ImGui::TextDisabled(tr("%lld statistics over %lld elements each%s"), static_cast<long long>(l.stat_count),
                            static_cast<long long>(r.stat_count()), "");
    // Eval mode: the running statistics as they are; nothing was pooled or divided by n.
    const bool running = r.stats_from_running;
    const int cols = rms ? 4 : running ? 4 : 6;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("stats", cols, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#");
    if (!running) ImGui::TableSetupColumn(tr("count"));
    if (rms) {
        ImGui::TableSetupColumn("mean(x²)");
        ImGui::TableSetupColumn("1/√(mean(x²)+ε)");
    } else if (running) {
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
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(l.stat_count));
    if (scroll && sel) clipper.ForceDisplayRangeByIndices(static_cast<int>(*sel), static_cast<int>(*sel) + 1);
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const auto i = static_cast<std::size_t>(row);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImVec2 p = ImGui::GetCursorScreenPos();
            const float sz = ImGui::GetTextLineHeight() - 4;
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + sz, p.y + 2 + sz),
                                                      to_imgui(stat_color(row, l.stat_count)));
            ImGui::Dummy(ImVec2(sz + 2, sz));
            ImGui::SameLine();
            const bool selected = sel && *sel == row;
            std::string label = std::to_string(row);
            if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns))
                session.select_statistic(row);
            if (selected && scroll) ImGui::SetScrollHereY(0.5f);
            ImGui::TableNextColumn();
            if (running) {
                ImGui::Text("%.5g", r.running_mean[i]);
                ImGui::TableNextColumn();
                ImGui::Text("%.5g", r.running_var[i]);
                ImGui::TableNextColumn();
                ImGui::Text("%.5g", r.rstd[i]);
                continue;
            }
            ImGui::Text("%lld", static_cast<long long>(r.stat_count()));
            ImGui::TableNextColumn();
            if (rms) {
                ImGui::Text("%.5g", r.mean_square[i]);
                ImGui::TableNextColumn();
                ImGui::Text("%.5g", r.rstd[i]);
            } else {
                ImGui::Text("%.5g", r.mean[i]);
                ImGui::TableNextColumn();
                ImGui::Text("%.5g", r.var[i]);
                ImGui::TableNextColumn();
                // The unbiased variance is the shader's biased one rescaled by n/(n−1).
                if (n > 1)
                    ImGui::Text("%.5g", r.unbiased_var(i));
                else
                    ImGui::TextDisabled("n/a (n=1)");
                ImGui::TableNextColumn();
                ImGui::Text("%.5g", r.rstd[i]);
            }
        }
    }
    ImGui::EndTable();
}

}  // namespace normlab::app
