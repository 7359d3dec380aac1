// Shell's layout (ImGui 1.86 has no docking): every panel at the rectangles of the normal layout or
// presenter mode (panel_layout.hpp), the heatmap area with the view in its place, and the status bar.
#include "normlab/views/shell.hpp"

#include "normlab/views/cube_view.hpp"
#include "normlab/views/exercise_ui.hpp"
#include "normlab/views/experiment_bar.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/views/method_buttons.hpp"
#include "normlab/views/panel_windows.hpp"
#include "normlab/views/wrapped_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace normlab::views {

LayoutContent Shell::layout_content() const {
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
    c.presenter = presenter_;
    c.train = train_shown_;
    c.tab = phone_tab_;
    return c;
}

void Shell::layout(float top) {
    const LayoutMetrics m = measure_layout(top);
    if (train_shown_ != train_was_) {  // the key, the menu or --train: on a phone, its tab follows
        if (screen_form(m, presenter_) == ScreenForm::Phone)
            phone_tab_ = train_shown_ ? PhoneTab::Train : PhoneTab::Heatmap;
        train_was_ = train_shown_;
    }
    const LayoutContent c = layout_content();
    const PanelRects r = layout_for(m, c);
    form_ = r.form;
    if (r.controls) {
        begin_panel(tr_id("Tensor & method", "controls"), *r.controls);
        controls_.draw(session_);
        ImGui::End();
    }
    if (r.heatmap) {
        heatmap_area(*r.heatmap);
        if (r.measure_heat_chrome) heat_chrome_ = r.heatmap->h - heatmap_.image_room_h();
    }
    if (r.pictures) {  // the pictures across the width, the histograms under them
        begin_panel(tr_id("Pictures", "pictures"), *r.pictures);
        pictures_.draw(session_);
        ImGui::End();
    }
    if (r.histograms) {
        const bool on_cpu = session_.backend().on_cpu();
        begin_panel(strf(tr("Histograms (%s)"), compute_unit(on_cpu)) + "###histograms", *r.histograms);
        histograms_.on_cpu = on_cpu;
        if (gradient_shown())
            gradient_.draw_histograms(session_, presenter_);
        else if (auto bins = histograms_.draw(session_.histograms(), session_.bins(), presenter_))
            session_.set_bins(*bins);
        ImGui::End();
    }
    figure_rect_ = {static_cast<int>(r.figure.x), static_cast<int>(r.figure.y), static_cast<int>(r.figure.w),
                    static_cast<int>(r.figure.h)};
    if (r.lesson) {
        begin_panel(tr_id("Lesson", "lesson"), *r.lesson);
        if (auto go = lessons_.draw(presenter_, session_.x(), session_.result(), lesson_runs(), lesson_sweep()))
            go_to_step(go->first, go->second);
        ImGui::End();
    }
    if (r.explain) {
        begin_panel(tr_id("Explain", "explain"), *r.explain);
        explain_area();
        ImGui::End();
    }
    if (r.stats) {
        begin_panel(tr_id("Statistics", "stats"), *r.stats);
        if (!hidden_panel(session_, core::Control::Statistics)) table_.draw(session_);
        ImGui::End();
    }
    if (r.train) {
        begin_panel(tr_id("Train", "train"), *r.train);
        if (experiment_ && experiment_->view.train)  // a training experiment's text
            experiment_heading(*experiment_, session_.x(), session_.result(), experiment_runs(), experiment_sweep());
        if (auto err = train_view_.draw(train_runs_, train_sweep_)) message(*err);
        for (const auto& file : train_view_.take_exports()) {
            if (file.png)
                platform_.save_export_png(file.name, file.crop);
            else
                platform_.save_export(file.name, file.bytes);
        }
        if (const auto inspect = train_view_.take_inspect())
            if (auto err = inspect_layer(inspect->first, inspect->second)) message(*err);
        ImGui::End();
    }
    if (r.tabs) phone_tabs(*r.tabs);
    platform_.status_bar(r.status);
}

// A phone's tabs: rows of buttons as tall as a finger, the shown panel's highlighted.
void Shell::phone_tabs(const Rect& r) {
    static constexpr const char* kNames[kPhoneTabs] = {"Heatmap",    "Controls", "Histograms", "Explain",
                                                       "Statistics", "Train",    "Lesson"};
    begin_panel("##tabs", r, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    const bool lessons = lessons_.active() || !lessons_.error().empty();
    const int n = lessons ? kPhoneTabs : kPhoneTabs - 1;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float w = std::floor((ImGui::GetContentRegionAvail().x - gap * (kPhoneTabsPerRow - 1)) / kPhoneTabsPerRow);
    const float h = std::max(ImGui::GetFrameHeight(), touch_target_height(measure_layout(0)));
    for (int i = 0; i < n; ++i) {
        if (i % kPhoneTabsPerRow) ImGui::SameLine();
        const bool shown = static_cast<int>(phone_tab_) == i;
        if (shown) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(tr_id(kNames[i], kNames[i]).c_str(), ImVec2(w, h))) {
            phone_tab_ = static_cast<PhoneTab>(i);
            train_shown_ = train_was_ = phone_tab_ == PhoneTab::Train;
        }
        if (shown) ImGui::PopStyleColor();
    }
    ImGui::End();
}

// Phones and tablets: every control at least a finger's height, scrollbars a finger can hold.
int Shell::push_touch_style() {
    const LayoutMetrics m = measure_layout(0);
    if (screen_form(m, presenter_) == ScreenForm::Wide) return 0;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float target = touch_target_height(m);
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding,
                        ImVec2(st.FramePadding.x, std::max(st.FramePadding.y, std::ceil((target - m.font_size) / 2))));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(st.ItemSpacing.x, std::max(st.ItemSpacing.y, target / 5)));
    ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, std::max(st.ScrollbarSize, target / 2));
    ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, std::max(st.GrabMinSize, target / 2));
    return 4;
}

// The heatmap panel: the presenter's row, the experiment's bar, then the heatmap or the view in its place.
void Shell::heatmap_area(const Rect& r) {
    begin_panel(heatmap_window_title(session_, {views_.compare, pair_experiment(), views_.gradient}), r);
    heatmap_.show_controls = !presenter_;
    heatmap_.compact = form_ == ScreenForm::Phone;
    heatmap_.center = presenter_;
    if (presenter_)  // one row: the methods, then the heatmap's modes (key H cycles them)
        if (auto err = presenter_row(session_, heatmap_, !views_.gradient && !views_.compare && !pair_experiment()))
            message(*err);
    if (experiment_) experiment_bar();
    if (views_.compare)
        compare_.draw(session_, views_.cube);
    else if (pair_experiment())
        pair_.draw(session_, views_.gradient);
    else if (views_.gradient)
        gradient_.draw(session_);
    else if (views_.cube)
        heatmap_beside_cube(heatmap_, session_);
    else if (session_.result().sync)  // SyncBN: the heatmap above, the devices and modes below
        heatmap_above_sync_view(heatmap_, session_, presenter_, r.h, sync_area_);
    else
        heatmap_.draw(session_);
    ImGui::End();
}

// The formula with the selected element's numbers; in the gradient view the backward's under it.
void Shell::explain_area() {
    if (hidden_panel(session_, core::Control::Explain)) return;
    explain_.draw(session_);
    const std::string text = gradient_shown() ? gradient_.explain(session_) : "";
    if (text.empty()) return;
    ImGui::Separator();
    wrapped_text(text);
}

}  // namespace normlab::views
