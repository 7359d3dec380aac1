// The Controls panel's tensor section: the shape editor and the tensor's source (generated, a
// preset, an image or a file).
#include "normlab/views/controls_panel.hpp"
#include "normlab/views/controls_widgets.hpp"

#include "normlab/io/file_kind.hpp"
#include "normlab/io/presets.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

namespace normlab::views {

void ControlsPanel::tensor_section(session::Session& s) {
    const ItemWidth width(-90);
    // A 3-D tensor is (N, L, D) to LayerNorm/RMSNorm and (N, C, L) to the others, as in PyTorch.
    const core::Method m = s.state().spec.method;
    const bool tokens = m == core::Method::Layer || m == core::Method::Rms;
    const int rank = s.x().shape.rank;
    ImGui::TextDisabled(rank == 1   ? tr("shape D = %s")
                        : rank == 2 ? tr("shape N×C = %s")
                        : rank == 5 ? tr("shape N×C×D×H×W = %s")
                        : rank != 3 ? tr("shape N×C×H×W = %s")
                        : tokens    ? tr("shape N×L×D = %s")
                                    : tr("shape N×C×L = %s"),
                        s.x().shape.str().c_str());
    if (!shape_editor(s)) source_controls(s);
}

bool ControlsPanel::shape_editor(session::Session& s) {
    // Shape: applied when the field loses focus (Enter or click elsewhere), not per keystroke.
    // The dims as the user sees them: N C, N L D / N C L, N C H W or N C D H W.
    const core::Shape4& sh = s.x().shape;
    const core::Method m = s.state().spec.method;
    const char* label = sh.rank == 1   ? "D"
                        : sh.rank == 2 ? "N C"
                        : sh.rank == 3 ? (m == core::Method::Layer || m == core::Method::Rms ? "N L D" : "N C L")
                        : sh.rank == 5 ? "N C D H W"
                                       : "N C H W";
    ImGui::InputScalarN(label, ImGuiDataType_S32, shape_edit_.data(), sh.rank);
    if (ImGui::IsItemDeactivatedAfterEdit()) shape_dirty_ = true;
    if (!shape_dirty_) return false;
    shape_dirty_ = false;
    std::int64_t numel = 1;
    bool ok = true;
    const std::vector<std::int64_t> dims(shape_edit_.begin(), shape_edit_.begin() + sh.rank);
    for (auto d : dims) {
        if (d < 1) ok = false;
        // No overflow, still "too large".
        numel = std::min<std::int64_t>(numel * std::max<std::int64_t>(1, d), std::int64_t{1} << 40);
    }
    const double bytes = static_cast<double>(numel) * 4;
    const double limit = static_cast<double>(s.backend().max_binding_bytes());
    if (!ok) {
        error_ = tr("every dimension must be at least 1");
    } else if (bytes > limit) {
        error_ = strf(tr("N·C·H·W = %lld floats = %s, but this device holds at most %s in one storage buffer "
                         "(maxStorageBufferRange)"),
                      static_cast<long long>(numel), mib(bytes).c_str(), mib(limit).c_str());
    } else {
        apply(s, session::with_source_shape(s.state(), core::Shape4::from_dims(dims)),
              session::TensorChange::from_source());
        return true;
    }
    return false;
}

void ControlsPanel::source_controls(session::Session& s) {
    const core::State& st = s.state();
    int kind = static_cast<int>(st.source.kind);
    const char* kinds[] = {tr("generated"), tr("preset"), tr(".npy file"), tr("image file")};
    bool file = st.source.kind == core::TensorSource::Kind::File;
    if (pending_image_) kind = static_cast<int>(core::TensorSource::Kind::Image);
    if (ImGui::Combo(tr_id("source", "source").c_str(), &kind, kinds, 4) && kind != static_cast<int>(st.source.kind)) {
        const core::State next =
            session::with_source_kind(st, static_cast<core::TensorSource::Kind>(kind), s.x().shape);
        pending_image_ = next.source.kind == core::TensorSource::Kind::Image;
        if (next.source.kind != core::TensorSource::Kind::File && !pending_image_)
            return apply(s, next, session::TensorChange::from_source());
        file = !pending_image_;  // a file is loaded only once its path is given
    }
    if (st.source.kind == core::TensorSource::Kind::Generated && generated_controls(s)) return;
    if (st.source.kind == core::TensorSource::Kind::Preset && preset_controls(s)) return;
    if (file) file_controls(s);
    if (pending_image_ || st.source.kind == core::TensorSource::Kind::Image) image_controls(s);
}

bool ControlsPanel::generated_controls(session::Session& s) {
    const core::State& st = s.state();
    const session::TensorChange load = session::TensorChange::from_source();
    auto names = core::init_names();
    int init = static_cast<int>(st.source.init);
    std::vector<const char*> items;
    for (const auto& n : names) items.push_back(n.c_str());
    if (ImGui::Combo(tr_id("init", "init").c_str(), &init, items.data(), static_cast<int>(items.size()))) {
        apply(s, session::with_source_init(st, static_cast<core::Init>(init)), load);
        return true;
    }
    if (st.source.init == core::Init::Constant) {
        float v = st.source.value;
        ImGui::InputFloat(tr_id("value", "value").c_str(), &v);
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            apply(s, session::with_source_value(st, v), load);
            return true;
        }
    }
    std::uint64_t seed = st.source.seed;
    ImGui::InputScalar(tr_id("seed", "seed").c_str(), ImGuiDataType_U64, &seed);
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        apply(s, session::with_source_seed(st, seed), load);
        return true;
    }
    if (ImGui::Button(tr_id("regenerate (next seed)", "regen").c_str())) {
        apply(s, session::with_source_seed(st, st.source.seed + 1), load);
        return true;
    }
    return false;
}

bool ControlsPanel::preset_controls(session::Session& s) {
    const core::State& st = s.state();
    const auto& ps = io::presets();
    int cur = 0;
    std::vector<const char*> items;
    for (std::size_t i = 0; i < ps.size(); ++i) {
        items.push_back(ps[i].name.c_str());
        if (ps[i].name == st.source.preset) cur = static_cast<int>(i);
    }
    if (ImGui::Combo(tr_id("preset", "preset").c_str(), &cur, items.data(), static_cast<int>(items.size()))) {
        apply(s, session::with_source_preset(st, ps[static_cast<std::size_t>(cur)].name),
              session::TensorChange::from_source());
        return true;
    }
    if (const io::Preset* p = io::find_preset(st.source.preset)) {
        if (language() == core::Language::Zh && !p->source_zh.empty())
            wrapped_text_disabled(strf("%s：%s", p->source_zh.c_str(), p->description_zh.c_str()));
        else
            wrapped_text_disabled(strf("%s: %s", p->source.c_str(), p->description.c_str()));
    }
    return false;
}

bool ControlsPanel::chooser_controls(const session::Session& s, core::TensorSource::Kind kind) {
    if (!pick_file) return false;
    if (s.state().source.kind == kind && !s.state().source.path.empty())
        ImGui::TextDisabled("%s", std::filesystem::path(s.state().source.path).filename().string().c_str());
    if (ImGui::Button(tr("Open a file…"))) pick_file();
    return true;
}

void ControlsPanel::file_controls(session::Session& s) {
    if (chooser_controls(s, core::TensorSource::Kind::File)) return;
    char buf[512];
    std::snprintf(buf, sizeof(buf), "%s", path_edit_.c_str());
    if (ImGui::InputText(tr_id("path", "path").c_str(), buf, sizeof(buf))) path_edit_ = buf;
    if (ImGui::Button(tr_id("load .npy", "load").c_str())) {
        return apply(s, session::with_source_file(s.state(), path_edit_), session::TensorChange::from_source());
    }
    // The .npy files of the current folder, as a simple file list.
    std::error_code ec;
    int shown = 0;
    for (const auto& entry : std::filesystem::directory_iterator(".", ec)) {
        if (io::file_kind(entry.path().string()) != io::FileKind::Npy || shown >= 12) continue;
        ++shown;
        std::string name = entry.path().filename().string();
        if (ImGui::Selectable(name.c_str(), name == path_edit_)) path_edit_ = name;
    }
    if (shown == 0)
        ImGui::TextDisabled(tr("(no .npy files in %s)"), std::filesystem::current_path(ec).string().c_str());
}

}  // namespace normlab::views
