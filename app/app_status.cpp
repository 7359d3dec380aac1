// AppUi's status bar: the last message (for a while), then the device, the GPU and total time of
// the last recompute, the float64 check and the frame rate; presenter mode's key hints instead.
#include "app_ui.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/panel_windows.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace normlab::app {

void AppUi::status_bar(const views::Rect& r) {
    views::begin_panel("##status", r, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    const bool recent = !msg_.empty() && std::chrono::steady_clock::now() - msg_time_ < message_shown(msg_error_);
    if (recent) {
        ImGui::TextColored(msg_error_ ? ImVec4(1, 0.45f, 0.45f, 1) : ImVec4(0.45f, 0.85f, 0.5f, 1), "%s", msg_.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    if (shell_.presenter()) {
        ImGui::TextDisabled(views::tr("F1 help  ·  F5 presenter  ·  1–5 method  ·  ←/→ step  ·  L 中文/English"));
    } else {
        const double err = session_.max_error();
        char err_text[32];
        if (std::isnan(err))
            std::snprintf(err_text, sizeof err_text, "%s", views::tr("checking…"));
        else
            std::snprintf(err_text, sizeof err_text, "%.2e", err);
        ImGui::Text(
            views::tr("device: %s  |  last recompute: GPU %.3f ms, total %.1f ms  |  max |error| vs CPU float64 "
                      "reference: %s  |  %.1f fps  |  F1: shortcuts"),
            window_.context().device_name().c_str(), session_.result().gpu_ms, session_.recompute_ms(), err_text,
            frame_ms > 0 ? 1000.0 / frame_ms : 0.0);
        if (!shell_.controls().error().empty()) {
            ImGui::SameLine();
            ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "| %s %s", views::tr("refused:"),
                               shell_.controls().error().c_str());
        }
    }
    ImGui::End();
}

}  // namespace normlab::app
