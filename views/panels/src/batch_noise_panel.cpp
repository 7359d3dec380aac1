#include "normlab/views/batch_noise_panel.hpp"

#include "normlab/views/i18n.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/scene_file.hpp"

#include <imgui.h>

namespace normlab::views {

namespace {
constexpr int kDraws = 200;
}

bool BatchNoisePanel::applies(const classroom::Experiment& e, const session::Session& s) {
    return e.kind == classroom::ExperimentKind::Pair && e.left_samples > 0 &&
           s.state().spec.method == core::Method::Batch;
}

void BatchNoisePanel::draw(session::Session& session, const classroom::Experiment& e) {
    const core::Shape4& sh = session.x().shape;  // a pair shows its left side: the first k samples
    char label[128];
    std::snprintf(label, sizeof label, tr("Measure the batch noise over %d draws per N"), kDraws);
    const bool clicked = ImGui::Button(label);
    button_at_ = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y};
    if (clicked) {
        try {
            std::vector<std::int64_t> sizes;
            for (std::int64_t n = io::load_tensor(e.state.source).shape.n; n >= 2; n /= 2) sizes.push_back(n);
            if (!backend_) backend_ = make_backend_();
            rows_ = plan::measure_batch_noise(*backend_, sh.c, sh.h * sh.w, sizes, kDraws, 1);
            measured_for_ = e.id;
            error_.clear();
        } catch (const std::runtime_error& e) {  // InputError or DeviceError, shown under the button
            rows_.clear();
            error_ = e.what();
        }
    }
    if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", error_.c_str());
    if (rows_.empty() || measured_for_ != e.id) return;
    ImGui::TextDisabled(tr("x ~ N(0, 1), %lld channels × L = %lld values per sample; BatchNorm's μ and σ² of each "
                           "channel, on the %s"),
                        static_cast<long long>(sh.c), static_cast<long long>(sh.h * sh.w),
                        compute_unit(backend_->on_cpu()));
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##noise", 5, flags)) return;
    ImGui::TableSetupColumn("N");
    ImGui::TableSetupColumn(tr("values per channel"));
    ImGui::TableSetupColumn(tr("sd of batch μ"));
    ImGui::TableSetupColumn("1/√(N·L)");
    ImGui::TableSetupColumn(tr("mean σ² (expected 1 − 1/(N·L))"));
    ImGui::TableHeadersRow();
    for (const auto& r : rows_) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%lld", static_cast<long long>(r.n));
        ImGui::TableNextColumn();
        ImGui::Text("%lld", static_cast<long long>(r.count));
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", r.sd_mean);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", r.expected_sd_mean);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f (%.3f)", r.mean_var, r.expected_mean_var);
    }
    ImGui::EndTable();
}

}  // namespace normlab::views
