// AppUi's two layouts (ImGui 1.86 has no docking): the normal one and presenter mode, the
// heatmap area, the histograms and pictures below it, and the status bar.
#include "app_ui.hpp"

#include "cube_view.hpp"
#include "exporter.hpp"
#include "i18n.hpp"
#include "sync_view.hpp"
#include "wrapped_text.hpp"

#include "normlab/error.hpp"
#include "normlab/state_edits.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

namespace normlab::app {

namespace {
constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                    ImGuiWindowFlags_NoSavedSettings;

void place(const std::string& name, float x, float y, float w, float h, ImGuiWindowFlags extra = 0) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
    ImGui::Begin(name.c_str(), nullptr, kFixed | extra);
}

// The status bar: one line of text, or a frame's height, whichever is taller.
float status_height() {
    return std::max(ImGui::GetFrameHeightWithSpacing() + 6,
                    ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().WindowPadding.y + 2);
}
}  // namespace

void AppUi::heatmap_area(float x, float y, float w, float h) {
    std::string title;
    if (compare_on_)
        title = std::string(tr("Compare: the same tensor, four methods (statistics mode)")) + "###heatmap";
    else if (pair_experiment())
        title = std::string(gradient_on_ ? tr("Side by side: one Jacobian row ∂y_k/∂x each")
                                         : tr("Side by side and difference")) +
                "###heatmap";
    else if (gradient_on_)
        title = std::string(tr("Gradient")) + ": " +
                method_torch_name(session_.state().spec.method, session_.x().shape) + "###heatmap";
    else
        title = std::string(tr("Heatmap")) + ": " +
                method_torch_name(session_.state().spec.method, session_.x().shape) + "###heatmap";
    place(title, x, y, w, h);
    heatmap_.show_controls = !presenter_;
    heatmap_.center = presenter_;
    if (presenter_) {  // one row: methods, then the heatmap modes (key H cycles them)
        method_buttons();
        if (!gradient_on_ && !compare_on_ && !pair_experiment()) {
            const char* modes[] = {"input x", "output y", "y − x", "statistic groups"};
            int m = static_cast<int>(heatmap_.mode);
            const ImGuiStyle& st = ImGui::GetStyle();
            for (int i = 0; i < 4; ++i) {
                // After the method buttons on their last row when it has room (one row less on 720 lines).
                same_line_if_fits(ImGui::GetFrameHeight() + st.ItemInnerSpacing.x +
                                  ImGui::CalcTextSize(tr(modes[i])).x);
                ImGui::RadioButton(tr(modes[i]), &m, i);
            }
            heatmap_.mode = static_cast<HeatmapMode>(m);
        }
    }
    if (experiment_) {
        experiment_bar();
        ImGui::Separator();
    }
    if (compare_on_) {
        compare_.draw(session_, cube_on_);
    } else if (pair_experiment()) {
        pair_.draw(session_, gradient_on_);
    } else if (gradient_on_) {
        gradient_.draw(session_);
    } else if (cube_on_) {
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        ImGui::BeginChild("heat", ImVec2(avail.x * 0.68f, avail.y), false, ImGuiWindowFlags_NoScrollbar);
        heatmap_.draw(session_);
        ImGui::EndChild();
        ImGui::SameLine();
        draw_partition_cube(session_.layout(), session_.selected_stat(),
                            avail.x * 0.32f - ImGui::GetStyle().ItemSpacing.x, std::min(avail.y, avail.x * 0.32f));
    } else if (session_.result().sync) {  // SyncBN: the heatmap above, the devices and modes below
        // The devices and modes get the height they need to show everything (last frame's
        // figure: it depends on the state and the width only), the heatmap the rest (a third
        // of the room at least: below that, the devices show fewer channels).
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        sync_chrome_ = h - avail.y;
        const float below = sync_need_ > 0 ? sync_need_ : avail.y * 0.6f;
        const float heat = std::floor(std::max(avail.y - below - ImGui::GetStyle().ItemSpacing.y, avail.y / 3));
        ImGui::BeginChild("heat", ImVec2(avail.x, heat), false, ImGuiWindowFlags_NoScrollbar);
        heatmap_.draw(session_);
        ImGui::EndChild();
        ImGui::BeginChild("syncbn", ImVec2(avail.x, 0), false);
        sync_need_ = draw_sync_view(session_, presenter_);
        ImGui::EndChild();
    } else {
        heatmap_.draw(session_);
    }
    ImGui::End();
}

bool AppUi::pictures_shown() const { return PicturePanel::wanted(session_) && !gradient_view_shown(); }

void AppUi::lower_area(float x, float y, float w, float h, bool large, float pic_h) {
    if (pictures_shown()) {  // the pictures across the width, the histograms under them
        if (pic_h <= 0) pic_h = std::floor(h * (large ? 0.5f : 0.55f));  // presenter: the histograms' large text
        place(tr_id("Pictures", "pictures"), x, y, w, pic_h);
        pictures_.draw(session_);
        ImGui::End();
        y += pic_h;
        h -= pic_h;
    }
    place(tr_id("Histograms (GPU)", "histograms"), x, y, w, h);
    if (gradient_view_shown())
        gradient_.draw_histograms(session_, large);
    else
        histograms_.draw(session_, large);
    ImGui::End();
}

void AppUi::layout_normal(float top) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const float status_h = status_height();
    const float left = std::max(330.0f, d.x * 0.21f), right = std::max(380.0f, d.x * 0.26f);
    const float mid = d.x - left - right, body = d.y - status_h - top;
    const float heat_h = body * (pictures_shown() ? 0.42f : 0.66f);

    place(tr_id("Tensor & method", "controls"), 0, top, left, body);
    controls_.draw(session_);
    ImGui::End();

    heatmap_area(left, top, mid, heat_h);

    lower_area(left, top + heat_h, mid, body - heat_h, false);
    figure_rect_ = {left, top, mid, body};

    float y = top;
    if (lessons_.active() || !lessons_.error().empty()) {
        const float lh = body * 0.34f;
        place(tr_id("Lesson", "lesson"), left + mid, y, right, lh);
        if (auto go = lessons_.draw(false, session_.x(), session_.result())) go_to_step(go->first, go->second);
        ImGui::End();
        y += lh;
    }
    const float explain_h = (top + body - y) * 0.5f;
    place(tr_id("Explain", "explain"), left + mid, y, right, explain_h);
    if (!hidden_panel(Control::Explain)) {
        explain_.draw(session_);
        explain_gradient();
    }
    ImGui::End();
    place(tr_id("Statistics", "stats"), left + mid, y + explain_h, right, top + body - y - explain_h);
    if (!hidden_panel(Control::Statistics)) table_.draw(session_);
    ImGui::End();
    status_bar(top + body, status_h);
}

void AppUi::layout_presenter(float top) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const float status_h = status_height();
    const float body = d.y - status_h - top;
    const float main_w = std::floor(d.x * 0.64f), side = d.x - main_w;
    // The compare and pair views and the SyncBN devices below the heatmap need most of the height.
    const bool sync_view = session_.result().sync.has_value() && !gradient_on_ && !cube_on_ && !compare_on_;
    const bool wide_views = compare_on_ || pair_experiment() || sync_view;
    // The compare view needs the whole height on a projector; the histograms stay in the pair view.
    // SyncBN: the histograms keep the room their captions and numbers need, the devices the rest.
    const float histograms_h = ImGui::GetFrameHeight() + 6.5f * ImGui::GetTextLineHeightWithSpacing();
    float heat_h = compare_on_        ? body
                   : pictures_shown() ? std::floor(body * 0.38f)
                   : sync_view        ? std::floor(std::max(body * 0.6f, body - histograms_h))
                                      : std::floor(body * (wide_views ? 0.70f : 0.64f));
    // SyncBN on a small projector (1280×720): when the devices and a heatmap five lines high do
    // not fit above the histograms, they take the histograms' place instead of scrolling.
    // (sync_need_ is what shows every channel, a function of the state and the width.)
    if (sync_view && sync_need_ > 0 && heat_h - sync_chrome_ - sync_need_ < 5 * ImGui::GetTextLineHeightWithSpacing())
        heat_h = body;
    const bool plain = !wide_views && !gradient_on_ && !cube_on_ && !pictures_shown();  // the heatmap alone
    if (plain) heat_h = presenter_heatmap_height(main_w, body);
    // With pictures: the histograms keep their lines, and the heatmap's tiles and the pictures
    // share the rest equally (each panel's own lines aside).
    const bool pictures = pictures_shown() && !wide_views && !gradient_on_ && !cube_on_;
    float pic_h = 0;
    if (pictures) {
        const float chrome = heat_chrome_ > 0 ? heat_chrome_ : ImGui::GetFontSize() * 6;
        const float pic_chrome = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y +
                                 ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
        const float each =
            std::floor(std::max(2 * ImGui::GetTextLineHeight(), (body - histograms_h - chrome - pic_chrome) / 2));
        heat_h = std::min(body, chrome + each);
        pic_h = std::min(body - heat_h, pic_chrome + each);  // a tiny window: the histograms go first
    }
    heatmap_area(0, top, main_w, heat_h);
    if (plain || pictures) heat_chrome_ = heat_h - heatmap_.image_room_h();
    if (heat_h < body) {
        lower_area(0, top + heat_h, main_w, body - heat_h, true, pic_h);
    }
    figure_rect_ = {0, top, main_w, body};

    float y = top;
    if (lessons_.active() || !lessons_.error().empty()) {
        const float lh = std::floor(body * 0.5f);
        place(tr_id("Lesson", "lesson"), main_w, y, side, lh);
        if (auto go = lessons_.draw(true, session_.x(), session_.result())) go_to_step(go->first, go->second);
        ImGui::End();
        y += lh;
    }
    place(tr_id("Explain", "explain"), main_w, y, side, top + body - y);
    if (!hidden_panel(Control::Explain)) {
        explain_.draw(session_);
        explain_gradient();
    }
    ImGui::End();
    status_bar(top + body, status_h);
}

// The heatmap panel's height in presenter mode: enough for tiles that fill the panel's width
// (the grid's aspect kept), at least half the body, and no more than leaves the histograms
// their lines (title, captions, numbers) and a plot two lines high. The heatmap panel's own
// lines (title, buttons, legend) as measured last frame.
float AppUi::presenter_heatmap_height(float width, float body) const {
    const Shape4& sh = session_.x().shape;
    const float chrome = heat_chrome_ > 0 ? heat_chrome_ : ImGui::GetFontSize() * 6;
    const float inner_w = width - 2 * ImGui::GetStyle().WindowPadding.x;
    const TileLayout wide = TileLayout::fit(sh, inner_w, 1e6f);  // the cells if only the width limited them
    const float need = chrome + static_cast<float>(wide.height) + 2;
    const float histograms = ImGui::GetFrameHeight() + 6.5f * ImGui::GetTextLineHeightWithSpacing();
    return std::floor(std::clamp(need, body * 0.5f, std::max(body * 0.5f, body - histograms)));
}

void AppUi::status_bar(float y, float h) {
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    place("##status", 0, y, d.x, h, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
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
