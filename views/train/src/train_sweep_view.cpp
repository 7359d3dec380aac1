// The Train view's Sweep tab (train_view.hpp): the keys swept over the selected run's config, Start /
// Cancel, the progress, the finished runs' table beside the figure (final validation error against the
// batch size, drawn by line_chart.hpp as normlab-cli's sweep figure is), Export CSV and Export PNG.
#include "normlab/views/i18n.hpp"
#include "normlab/views/line_chart.hpp"
#include "normlab/views/train_view.hpp"

#include "normlab/core/error.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace normlab::views {
namespace {

// The finished runs: the swept keys' values, then the final numbers (the CSV's columns).
void sweep_table(const TrainSweep& sweep, float width, float height) {
    const auto keys = static_cast<int>(sweep.axes().size());
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##sweep_runs", keys + 5, flags, ImVec2(width, height))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const auto& axis : sweep.axes()) ImGui::TableSetupColumn(axis.key.c_str());
    for (const char* name : {"train loss", "train acc", "val loss", "val acc", "steps/s"})
        ImGui::TableSetupColumn(tr(name));
    ImGui::TableHeadersRow();
    for (int r = 0; r < sweep.finished(); ++r) {
        const train::SweepRun& run = sweep.runs()[static_cast<std::size_t>(r)];
        const train::SweepResult& x = sweep.results()[static_cast<std::size_t>(r)];
        ImGui::TableNextRow();
        for (const auto& v : run.values) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(v.c_str());
        }
        for (const double v : {static_cast<double>(x.train_loss), static_cast<double>(x.train_acc),
                               static_cast<double>(x.val_loss), static_cast<double>(x.val_acc)}) {
            ImGui::TableNextColumn();
            ImGui::Text("%.4f", v);
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.0f", x.steps_per_second);
    }
    ImGui::EndTable();
}

// The figure: one line per value of the other keys, in the palette's colours, a legend; log2 batch axis.
LineChart sweep_chart(const TrainSweep& sweep) {
    LineChart chart{
        tr("final validation error (%) against batch size"), tr("batch size (log2 axis)"), true, 0.0, NAN, {}};
    for (const auto& line : train::sweep_error_series(sweep.axes(), sweep.runs(), sweep.results()))
        chart.series.push_back({line.label, line.batch, line.error, static_cast<int>(chart.series.size()), true});
    return chart;
}

bool cnn_runs(const TrainRunSet& runs) {
    return !runs.runs().empty() && runs.runs().front().config.model == train::TrainModel::Cnn;
}

}  // namespace

train::TrainConfig sweep_base(const TrainRunSet& runs, int selected) {
    if (runs.runs().empty()) return default_train_config();
    return train::sweep_base(
        runs.runs()[static_cast<std::size_t>(std::clamp(selected, 0, static_cast<int>(runs.runs().size()) - 1))]
            .config);
}

std::optional<std::string> TrainView::start_sweep(const TrainRunSet& runs, TrainSweep& sweep) const {
    try {
        return sweep.start(runs.factory(), sweep_base(runs, selected_), fields_.axes(cnn_runs(runs)));
    } catch (const std::exception& e) {
        return core::error_line(e);
    }
}

std::optional<std::string> TrainView::open_sweep(const classroom::SceneSweep& s, const TrainRunSet& runs,
                                                 TrainSweep& sweep) {
    selected_ = std::clamp(s.run - 1, 0, std::max(0, static_cast<int>(runs.runs().size()) - 1));
    editing_.reset();
    fields_.set(s.axes);
    sweep_tab_ = true;
    std::optional<std::string> err;
    try {
        if (s.start && !sweep.holds(sweep_base(runs, selected_), fields_.axes(cnn_runs(runs))))
            err = start_sweep(runs, sweep);
    } catch (const std::exception& e) {
        err = core::error_line(e);
    }
    sweep_shown_ = sweep.started();  // the fields stay the scene's
    return err;
}

std::optional<classroom::SceneSweep> TrainView::scene_sweep(const TrainRunSet& runs, const TrainSweep& sweep) const {
    if (!(sweep_open_ || sweep_tab_) || runs.runs().empty()) return std::nullopt;
    classroom::SceneSweep s;
    try {
        s.axes = fields_.axes(cnn_runs(runs));
        train::sweep_grid(sweep_base(runs, selected_), s.axes);  // a scene that opens
    } catch (const std::exception&) {
        return std::nullopt;
    }
    s.run = std::clamp(selected_, 0, static_cast<int>(runs.runs().size()) - 1) + 1;
    s.start = sweep.holds(sweep_base(runs, selected_), s.axes);
    return s;
}

std::optional<std::string> TrainView::sweep_controls(const TrainRunSet& runs, TrainSweep& sweep) {
    std::optional<std::string> err;
    if (sweep.started() != sweep_shown_) {  // a sweep started elsewhere (the app's --train-sweep): its axes
        fields_.set(sweep.axes());
        sweep_shown_ = sweep.started();
    }
    const bool cnn = cnn_runs(runs);
    ImGui::TextUnformatted(tr("norm:"));
    for (std::size_t i = 0; i < kTrainNorms.size(); ++i) {
        if (kTrainNorms[i] == train::TrainNorm::Instance && !cnn) continue;
        ImGui::SameLine();
        bool on = fields_.norms[i];
        const std::string name = train::train_norm_name(kTrainNorms[i]);
        if (ImGui::Checkbox((std::string(tr(name.c_str())) + "##sweep_" + name).c_str(), &on)) fields_.norms[i] = on;
    }
    const float field = ImGui::GetFontSize() * 9;
    ImGui::SetNextItemWidth(field);
    ImGui::InputText(tr_id("batch sizes", "sweep_batch").c_str(), fields_.batches.data(), fields_.batches.size());
    sweep_spots_[1] = item_centre();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field);
    ImGui::InputText(tr_id("learning rates", "sweep_lr").c_str(), fields_.lrs.data(), fields_.lrs.size());
    ImGui::SameLine();
    if (sweep.running()) {
        if (ImGui::Button(tr_id("Cancel", "sweep_cancel").c_str())) sweep.cancel();
        return err;
    }
    const bool start = ImGui::Button(tr_id("Start sweep", "sweep_start").c_str());
    sweep_spots_[2] = item_centre();
    if (start) err = start_sweep(runs, sweep);
    return err;
}

std::optional<std::string> TrainView::sweep_panel(const TrainRunSet& runs, TrainSweep& sweep, float width,
                                                  float height) {
    const float top = ImGui::GetCursorPosY();
    std::optional<std::string> err = sweep_controls(runs, sweep);
    char line[256];
    if (sweep.running())
        std::snprintf(line, sizeof line, tr("run %d of %d: %s, step %d / %d"), sweep.finished() + 1, sweep.total(),
                      sweep.current_label().c_str(), sweep.current_steps(), sweep.current_total_steps());
    else if (sweep.state() == TrainSweep::State::Empty)
        std::snprintf(line, sizeof line, "%s", tr("the selected run's settings, over every value checked or listed"));
    else
        std::snprintf(line, sizeof line, tr("%d of %d runs finished%s"), sweep.finished(), sweep.total(),
                      sweep.state() == TrainSweep::State::Cancelled ? tr(" (cancelled)") : "");
    float done = sweep.total() > 0 ? static_cast<float>(sweep.finished()) : 0.0f;
    if (sweep.running() && sweep.current_total_steps() > 0)
        done += static_cast<float>(sweep.current_steps()) / static_cast<float>(sweep.current_total_steps());
    ImGui::ProgressBar(sweep.total() > 0 ? done / static_cast<float>(sweep.total()) : 0.0f, ImVec2(width * 0.6f, 0),
                       line);
    ImGui::SameLine();
    const bool complete = sweep.state() == TrainSweep::State::Done;
    ImGui::BeginDisabled(!complete);
    const bool csv = ImGui::Button(tr_id("Export CSV", "sweep_csv").c_str());
    ImGui::SameLine();
    const bool png = ImGui::Button(tr_id("Export PNG", "sweep_png").c_str());
    ImGui::EndDisabled();
    if (!sweep.error().empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", sweep.error().c_str());
    const float rest = std::max(ImGui::GetFontSize() * 8, height - (ImGui::GetCursorPosY() - top));
    const bool beside = width > ImGui::GetFontSize() * 45;
    const float table_w = beside ? std::floor(width * 0.48f) : width;
    sweep_table(sweep, table_w, beside ? rest : rest * 0.4f);
    if (beside) ImGui::SameLine();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 size(beside ? width - table_w - ImGui::GetStyle().ItemSpacing.x : width,
                      beside ? rest : rest * 0.6f - ImGui::GetStyle().ItemSpacing.y);
    if (train::sweep_has_batch(sweep.axes()))
        draw_line_chart(sweep_chart(sweep), size);
    else
        ImGui::TextDisabled("%s", tr("the figure needs batch sizes to sweep"));
    sweep_figure_ = {static_cast<int>(at.x), static_cast<int>(at.y), static_cast<int>(size.x),
                     static_cast<int>(size.y)};
    const bool auto_export = export_when_done_ && complete;
    if (auto_export) export_when_done_ = false;
    if (complete && (csv || auto_export)) exports_.push_back({"normlab-sweep.csv", sweep.csv(), false, {}});
    if (complete && (png || auto_export)) exports_.push_back({"normlab-sweep.png", "", true, sweep_figure_});
    return err;
}

}  // namespace normlab::views
