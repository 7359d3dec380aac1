#include "normlab/views/controls_panel.hpp"
#include "normlab/views/controls_widgets.hpp"

#include "normlab/classroom/experiments.hpp"
#include "normlab/io/file_kind.hpp"

#include "normlab/io/presets.hpp"
#include "normlab/core/stat_layout.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <limits>

namespace normlab::views {
namespace {

// The method combo's items, "batch (BatchNorm2d)", … in the order of methods(); for a 3-D
// tensor "batch (BatchNorm1d)" and "instance (InstanceNorm1d)".
const std::vector<const char*>& method_items(int rank) {
    auto make = [](int r) {
        std::vector<std::string> l;
        core::Shape4 s;
        s.rank = r;  // only the rank picks the module's name
        for (const core::MethodInfo& m : core::methods())
            l.push_back(std::string(m.name) + " (" + core::method_torch_name(m.id, s) + ")");
        return l;
    };
    static const std::vector<std::string> labels[] = {make(2), make(3), make(4), make(5)};
    auto items = [](const std::vector<std::string>& l) {
        std::vector<const char*> i;
        for (const auto& t : l) i.push_back(t.c_str());
        return i;
    };
    static const std::vector<const char*> all[] = {items(labels[0]), items(labels[1]), items(labels[2]),
                                                   items(labels[3])};
    return all[std::clamp(rank, 2, 5) - 2];
}

// An exercise (a handed-out scene) hides some controls and greys out others.
bool shown(const session::Session& s, core::Control c) { return !s.state().exercise.hides(c); }
class Locked {
public:
    Locked(const session::Session& s, core::Control c) : on_(s.state().exercise.locks(c)) {
        if (on_) ImGui::BeginDisabled();
    }
    ~Locked() {
        if (on_) ImGui::EndDisabled();
    }
    Locked(const Locked&) = delete;
    Locked& operator=(const Locked&) = delete;

private:
    bool on_;
};

}  // namespace

void ControlsPanel::apply(session::Session& s, const core::State& next, session::TensorChange change) {
    auto err = s.apply(next, std::move(change));
    error_ = err ? *err : "";
}

void ControlsPanel::draw(session::Session& s) {
    if (seen_generation_ != s.generation()) {
        const core::Shape4& sh = s.x().shape;
        const auto dims = sh.dims();
        shape_edit_ = {};
        for (std::size_t i = 0; i < dims.size(); ++i) shape_edit_[i] = static_cast<int>(dims[i]);
        if (s.state().source.kind == core::TensorSource::Kind::File) path_edit_ = s.state().source.path;
        seen_generation_ = s.generation();
    }
    if (!error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 110, 110, 255));
        wrapped_text(strf(tr("Refused: %s"), error_.c_str()));
        ImGui::PopStyleColor();
        ImGui::TextDisabled("%s", tr("(the previous state is kept)"));
    }
    if (!s.state().exercise.empty()) {
        wrapped_text_colored(ImVec4(0.94f, 0.89f, 0.26f, 1),
                             tr("Exercise: some controls are hidden or locked by this scene."));
    }
    if (shown(s, core::Control::Tensor) &&
        ImGui::CollapsingHeader(tr_id("Tensor", "tensor").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
        Locked lock(s, core::Control::Tensor);
        tensor_section(s);
    }
    if (ImGui::CollapsingHeader(tr_id("Method", "method").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) method_section(s);
}

void ControlsPanel::method_section(session::Session& s) {
    const core::State& st = s.state();
    const core::Shape4& sh = s.x().shape;
    const session::TensorChange keep = session::TensorChange::keep();
    {  // the method, G, normalized_shape and ε at one width; an applied change ends the section
        const ItemWidth width(-90);
        const auto& all = core::methods();
        const auto& items = method_items(sh.rank);
        int m = 0;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all[i].id == st.spec.method) m = static_cast<int>(i);
        if (shown(s, core::Control::Method)) {
            Locked lock(s, core::Control::Method);
            if (ImGui::Combo(tr_id("method", "method").c_str(), &m, items.data(), static_cast<int>(items.size())) &&
                all[static_cast<std::size_t>(m)].id != st.spec.method) {
                return apply(s, session::with_method(st, all[static_cast<std::size_t>(m)].id, sh.c), keep);
            }
        }
        if (st.spec.method == core::Method::Group && shown(s, core::Control::Groups)) {
            Locked lock(s, core::Control::Groups);
            auto ds = session::divisors(sh.c);
            std::string label = std::to_string(st.spec.groups);
            if (ImGui::BeginCombo(tr_id("groups G", "groups").c_str(), label.c_str())) {
                for (auto g : ds) {
                    std::string l = strf(tr("%lld  (%lld channels per group)"), static_cast<long long>(g),
                                         static_cast<long long>(sh.c / g));
                    if (ImGui::Selectable(l.c_str(), g == st.spec.groups)) apply(s, session::with_groups(st, g), keep);
                }
                ImGui::EndCombo();
            }
            std::string others;
            for (std::int64_t g = 2; g <= std::min<std::int64_t>(sh.c, 12); ++g)
                if (sh.c % g) others += (others.empty() ? "" : ", ") + std::to_string(g);
            wrapped_text_disabled(
                strf(tr("G must divide C = %lld: each group takes C/G whole channels."), static_cast<long long>(sh.c)) +
                (others.empty() ? std::string()
                                : strf(tr(" Not offered: %s (C/G would not be a whole number of "
                                          "channels)."),
                                       others.c_str())));
        }
        if ((st.spec.method == core::Method::Layer || st.spec.method == core::Method::Rms) &&
            shown(s, core::Control::NormalizedShape)) {
            Locked lock(s, core::Control::NormalizedShape);
            auto ns = st.spec.effective_normalized_shape(sh);
            int k = static_cast<int>(ns.size()) - 1;
            // The trailing k dims, 1 <= k <= rank: [W], [H,W], [C,H,W]; [D], [L,D]; [C]; up to [C,D,H,W];
            // the last, every dim (N included), is one statistic over the whole tensor.
            const auto dims = sh.dims();
            const auto names = core::axis_names(st.spec.method, sh);
            std::vector<std::string> labels;
            for (std::size_t j = dims.size(); j-- > 0;) {
                std::string axes;
                for (std::size_t a = j; a < dims.size(); ++a) axes += (a > j ? "," : "") + names[a];
                labels.push_back("[" + axes +
                                 "] = " + core::dims_str({dims.begin() + static_cast<std::ptrdiff_t>(j), dims.end()}));
            }
            std::vector<const char*> opts;
            for (const auto& l : labels) opts.push_back(l.c_str());
            if (ImGui::Combo(tr_id("normalized", "normalized").c_str(), &k, opts.data(),
                             static_cast<int>(opts.size()))) {
                const auto from = static_cast<std::ptrdiff_t>(dims.size()) - 1 - k;
                const std::vector<std::int64_t> chosen =
                    from == 1 || dims.size() == 1 ? std::vector<std::int64_t>{}
                                                  : std::vector<std::int64_t>(dims.begin() + from, dims.end());
                return apply(s, session::with_normalized_shape(st, chosen), keep);
            }
        }
        if (shown(s, core::Control::Eps)) {
            Locked lock(s, core::Control::Eps);
            double eps = st.spec.effective_eps();
            ImGui::InputDouble(tr_id("eps ε", "eps").c_str(), &eps, 0, 0, "%.3g");
            if (ImGui::IsItemDeactivatedAfterEdit()) return apply(s, session::with_eps(st, eps), keep);
        }
    }
    affine_section(s);
    if (st.spec.method == core::Method::Batch) batch_section(s);
    if (st.spec.method == core::Method::Instance && shown(s, core::Control::Params)) {  // AdaIN's style sets γ and β
        Locked lock(s, core::Control::Params);
        style_controls(s);
    }
}

void ControlsPanel::affine_section(session::Session& s) {
    const core::State& st = s.state();
    const core::StatLayout& l = s.layout();
    const session::TensorChange keep = session::TensorChange::keep();
    if (shown(s, core::Control::Affine)) {
        Locked lock(s, core::Control::Affine);
        bool affine = st.spec.affine;
        if (ImGui::Checkbox(tr_id("affine (γ, β)", "affine").c_str(), &affine))
            return apply(s, session::with_affine(st, affine), keep);
        if (st.spec.method == core::Method::Layer && st.spec.affine) {
            ImGui::SameLine();
            bool bias = st.spec.bias;
            if (ImGui::Checkbox(tr_id("bias β", "bias").c_str(), &bias))
                return apply(s, session::with_bias(st, bias), keep);
        }
    }
    if (!st.spec.affine || !shown(s, core::Control::Params)) return;
    Locked lock(s, core::Control::Params);
    const auto count = static_cast<std::size_t>(l.param_count);
    const bool has_b = st.spec.has_bias();
    wrapped_text_disabled(
        strf(has_b ? tr("γ, β shape %s (%s)") : tr("γ shape %s (%s)"), core::dims_str(l.param_shape).c_str(),
             st.spec.method == core::Method::Layer || st.spec.method == core::Method::Rms
                 ? tr("one per element of normalized_shape")
             : l.shape.rank == 2 && st.spec.method == core::Method::Instance ? tr("one per row of the unbatched (C, L)")
                                                                             : tr("one per channel")));
    std::vector<float> w = st.params.weight.empty() ? std::vector<float>(count, 1.0f) : st.params.weight;
    std::vector<float> b = st.params.bias.empty() ? std::vector<float>(count, 0.0f) : st.params.bias;
    float all[2] = {w[0], has_b ? b[0] : 0.0f};
    ImGui::SetNextItemWidth(-90);
    if (has_b ? ImGui::InputFloat2(tr_id("all γ, β", "all").c_str(), all, "%.3g")
              : ImGui::InputFloat(tr_id("all γ", "all").c_str(), all, 0, 0, "%.3g")) {}
    if (ImGui::IsItemDeactivatedAfterEdit())
        return apply(s, session::with_params(st, std::vector<float>(count, all[0]), std::vector<float>(count, all[1])),
                     keep);
    if (count <= 64 && ImGui::TreeNode("##per-index", "%s", tr("per index"))) {
        for (std::size_t i = 0; i < count; ++i) {
            ImGui::PushID(static_cast<int>(i));
            float v[2] = {w[i], b[i]};
            ImGui::SetNextItemWidth(-90);
            std::string label =
                (l.param_stride == 1 ? std::string(tr("elem ")) : std::string("c = ")) + std::to_string(i);
            if (has_b ? ImGui::DragFloat2(label.c_str(), v, 0.01f) : ImGui::DragFloat(label.c_str(), v, 0.01f)) {
                w[i] = v[0];
                b[i] = v[1];
                apply(s, session::with_params(st, w, b), keep);
                ImGui::PopID();
                break;
            }
            ImGui::PopID();
        }
        ImGui::TreePop();
    }
}

// SyncBN on K simulated devices: K among the divisors of N (off = one device, plain BatchNorm)
// and the mode. Returns true when it changed the state.
bool ControlsPanel::sync_section(session::Session& s) {
    const core::State& st = s.state();
    const std::int64_t N = s.x().shape.n;
    std::string current = st.spec.sync_devices ? std::to_string(st.spec.sync_devices) : tr("off");
    ImGui::SetNextItemWidth(6 * ImGui::GetFontSize());
    if (ImGui::BeginCombo(tr_id("SyncBN devices K", "syncK").c_str(), current.c_str())) {
        if (ImGui::Selectable(tr("off"), st.spec.sync_devices == 0)) {
            apply(s, session::with_sync_devices(st, 0), session::TensorChange::keep());
            ImGui::EndCombo();
            return true;
        }
        for (std::int64_t k = 1; k <= N; ++k) {
            if (N % k) continue;  // K must divide the batch
            if (ImGui::Selectable(std::to_string(k).c_str(), st.spec.sync_devices == k)) {
                apply(s, session::with_sync_devices(st, k), session::TensorChange::keep());
                ImGui::EndCombo();
                return true;
            }
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("split the batch into K devices of N/K consecutive samples (K divides N)"));
    if (st.spec.sync_devices == 0) return false;
    int mode = static_cast<int>(st.spec.sync_mode);
    bool changed = ImGui::RadioButton(tr_id("sync", "sync").c_str(), &mode, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton(tr_id("local", "local").c_str(), &mode, 1);
    ImGui::SameLine();
    changed |= ImGui::RadioButton(tr_id("naive", "naive").c_str(), &mode, 2);
    if (!changed) return false;
    apply(s, session::with_sync_mode(st, static_cast<core::SyncMode>(mode)), session::TensorChange::keep());
    return true;
}

void ControlsPanel::batch_section(session::Session& s) {
    const core::State& st = s.state();
    const core::NormResult& r = s.result();
    const session::TensorChange keep = session::TensorChange::keep();
    ImGui::Separator();
    ImGui::TextUnformatted(tr("BatchNorm: mode and running statistics"));
    if (shown(s, core::Control::Mode)) {
        Locked lock(s, core::Control::Mode);
        int mode = st.spec.mode == core::Mode::Train ? 0 : 1;
        bool changed = ImGui::RadioButton(tr_id("train (batch stats)", "train").c_str(), &mode, 0);
        ImGui::SameLine();
        changed |= ImGui::RadioButton(tr_id("eval (running stats)", "eval").c_str(), &mode, 1);
        if (changed) return apply(s, session::with_mode(st, mode == 0 ? core::Mode::Train : core::Mode::Eval), keep);
    }
    bool cumulative = !st.spec.momentum.has_value();
    if (shown(s, core::Control::Momentum)) {
        Locked lock(s, core::Control::Momentum);
        if (ImGui::Checkbox(tr_id("cumulative (momentum=None)", "cumulative").c_str(), &cumulative))
            return apply(
                s,
                session::with_momentum(st, cumulative ? std::nullopt : std::optional<double>(core::kDefaultMomentum)),
                keep);
    }
    if (!cumulative && shown(s, core::Control::Momentum)) {
        Locked lock(s, core::Control::Momentum);
        float mom = static_cast<float>(*st.spec.momentum);
        ImGui::SetNextItemWidth(-90);
        ImGui::SliderFloat(tr_id("momentum", "momentum").c_str(), &mom, 0.0f, 1.0f, "%.3f");
        if (ImGui::IsItemDeactivatedAfterEdit()) return apply(s, session::with_momentum(st, mom), keep);
        wrapped_text_disabled(tr("PyTorch: weight of the NEW batch (Keras' 0.99 is the old one)"));
    }
    if (shown(s, core::Control::Sync)) {
        Locked lock(s, core::Control::Sync);
        if (sync_section(s)) return;
    }
    if (!shown(s, core::Control::RunningStats)) return;
    Locked lock(s, core::Control::RunningStats);
    if (ImGui::Button(tr_id("train step", "step").c_str())) {
        auto err = s.train_step();
        error_ = err ? *err : "";
        return;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("draw a fresh randn batch (same shape, next seed) and update the running stats "
                                   "(PyTorch updates them on every forward pass in train mode)"));
    ImGui::SameLine();
    if (ImGui::Button(tr_id("reset", "reset").c_str())) {
        auto err = s.reset_running();
        error_ = err ? *err : "";
        return;
    }
    ImGui::SameLine();
    ImGui::Text(tr("batches tracked: %lld"), static_cast<long long>(st.params.num_batches_tracked));
    const auto C = static_cast<std::size_t>(s.x().shape.c);
    if (ImGui::BeginTable(
            "running", 3, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
            ImVec2(0, std::min(8.0f, static_cast<float>(C) + 1.5f) * ImGui::GetTextLineHeightWithSpacing()))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("c");
        ImGui::TableSetupColumn(tr("running mean"));
        ImGui::TableSetupColumn(tr("running var"));
        ImGui::TableHeadersRow();
        for (std::size_t c = 0; c < C; ++c) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%zu", c);
            ImGui::TableNextColumn();
            ImGui::Text("%.4g", st.params.running_mean.empty() ? 0.0 : st.params.running_mean[c]);
            ImGui::TableNextColumn();
            ImGui::Text("%.4g", st.params.running_var.empty() ? 1.0 : st.params.running_var[c]);
        }
        ImGui::EndTable();
    }
    wrapped_text_disabled(
        tr("stored values (eval uses them); running var is a moving average of the batches' "
           "UNBIASED variances."));
    if (r.running_updated && !r.running_mean.empty())
        wrapped_text_disabled(strf(tr("a train step on this batch would give c=0: mean %.4g, var %.4g"),
                                   r.running_mean[0], r.running_var[0]));
}

}  // namespace normlab::views
