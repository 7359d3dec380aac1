// AppUi's two layouts (ImGui 1.86 has no docking): the normal one and presenter mode, the
// heatmap area, the histograms and pictures below it, and the status bar.
#include "app_ui.hpp"

#include "cube_view.hpp"
#include "exporter.hpp"
#include "i18n.hpp"
#include "panel_windows.hpp"
#include "sync_view.hpp"
#include "wrapped_text.hpp"

#include "normlab/error.hpp"
#include "normlab/state_edits.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

namespace normlab::app {

void AppUi::heatmap_area(const Rect& r) {
    const std::string title = heatmap_window_title(session_, {views_.compare, pair_experiment(), views_.gradient});
    begin_panel(title, r);
    heatmap_.show_controls = !presenter_;
    heatmap_.center = presenter_;
    if (presenter_) {  // one row: methods, then the heatmap modes (key H cycles them)
        if (auto err = presenter_row(session_, heatmap_, !views_.gradient && !views_.compare && !pair_experiment()))
            message(*err, true);
    }
    if (experiment_) {
        experiment_bar();
        ImGui::Separator();
    }
    if (views_.compare) {
        compare_.draw(session_, views_.cube);
    } else if (pair_experiment()) {
        pair_.draw(session_, views_.gradient);
    } else if (views_.gradient) {
        gradient_.draw(session_);
    } else if (views_.cube) {
        heatmap_beside_cube(heatmap_, session_);
    } else if (session_.result().sync) {  // SyncBN: the heatmap above, the devices and modes below
        heatmap_above_sync_view(heatmap_, session_, presenter_, r.h, sync_area_);
    } else {
        heatmap_.draw(session_);
    }
    ImGui::End();
}

bool AppUi::pictures_shown() const { return PicturePanel::wanted(session_) && !gradient_view_shown(); }

LayoutContent AppUi::layout_content() const {
    LayoutContent c;
    c.shape = session_.x().shape;
    c.pictures = pictures_shown();
    c.lessons = lessons_.active() || !lessons_.error().empty();
    c.compare = views_.compare;
    c.pair = pair_experiment();
    c.gradient = views_.gradient;
    c.cube = views_.cube;
    c.sync = session_.result().sync.has_value();
    c.heat_chrome = heat_chrome_;
    c.sync_chrome = sync_area_.chrome;
    c.sync_need = sync_area_.need;
    return c;
}

// The panels at the rectangles of the normal layout or presenter mode (panel_layout.hpp).
void AppUi::layout(float top) {
    const LayoutMetrics m = measure_layout(top);
    const LayoutContent c = layout_content();
    const PanelRects r = presenter_ ? presenter_layout(m, c) : normal_layout(m, c);
    auto at = [](const std::string& name, const Rect& q) { begin_panel(name, q); };
    if (r.controls) {
        at(tr_id("Tensor & method", "controls"), *r.controls);
        controls_.draw(session_);
        ImGui::End();
    }
    heatmap_area(r.heatmap);
    if (r.measure_heat_chrome) heat_chrome_ = r.heatmap.h - heatmap_.image_room_h();
    if (r.pictures) {  // the pictures across the width, the histograms under them
        at(tr_id("Pictures", "pictures"), *r.pictures);
        pictures_.draw(session_);
        ImGui::End();
    }
    if (r.histograms) {
        at(tr_id("Histograms (GPU)", "histograms"), *r.histograms);
        if (gradient_view_shown())
            gradient_.draw_histograms(session_, presenter_);
        else if (auto bins = histograms_.draw(session_.histograms(), session_.bins(), presenter_))
            session_.set_bins(*bins);
        ImGui::End();
    }
    figure_rect_ = {r.figure.x, r.figure.y, r.figure.w, r.figure.h};
    if (r.lesson) {
        at(tr_id("Lesson", "lesson"), *r.lesson);
        if (auto go = lessons_.draw(presenter_, session_.x(), session_.result())) go_to_step(go->first, go->second);
        ImGui::End();
    }
    at(tr_id("Explain", "explain"), r.explain);
    if (!hidden_panel(session_, Control::Explain)) {
        explain_.draw(session_);
        explain_gradient();
    }
    ImGui::End();
    if (r.stats) {
        at(tr_id("Statistics", "stats"), *r.stats);
        if (!hidden_panel(session_, Control::Statistics)) table_.draw(session_);
        ImGui::End();
    }
    status_bar(r.status);
}

void AppUi::status_bar(const Rect& r) {
    begin_panel("##status", r, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    const bool recent =
        !msg_.empty() && std::chrono::steady_clock::now() - msg_time_ < std::chrono::seconds(msg_error_ ? 20 : 8);
    if (recent) {
        ImGui::TextColored(msg_error_ ? ImVec4(1, 0.45f, 0.45f, 1) : ImVec4(0.45f, 0.85f, 0.5f, 1), "%s", msg_.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    if (presenter_) {
        ImGui::TextDisabled(tr("F1 help  ·  F5 presenter  ·  1–5 method  ·  ←/→ step  ·  L 中文/English"));
    } else {
        const double err = session_.max_error();
        char err_text[32];
        if (std::isnan(err))
            std::snprintf(err_text, sizeof err_text, "%s", tr("checking…"));
        else
            std::snprintf(err_text, sizeof err_text, "%.2e", err);
        ImGui::Text(tr("device: %s  |  last recompute: GPU %.3f ms, total %.1f ms  |  max |error| vs CPU float64 "
                       "reference: %s  |  %.1f fps  |  F1: shortcuts"),
                    window_.context().device_name().c_str(), session_.result().gpu_ms, session_.recompute_ms(),
                    err_text, frame_ms > 0 ? 1000.0 / frame_ms : 0.0);
        if (!controls_.error().empty()) {
            ImGui::SameLine();
            ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "| %s %s", tr("refused:"), controls_.error().c_str());
        }
    }
    ImGui::End();
}

}  // namespace normlab::app
