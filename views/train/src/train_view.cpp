// TrainView (train_view.hpp): the toolbar, the runs' rows and the selected run's settings; the
// curves are in train_plot.cpp.
#include "normlab/views/train_view.hpp"

#include "normlab/views/colormap.hpp"
#include "normlab/views/controls_widgets.hpp"
#include "normlab/views/i18n.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

namespace normlab::views {
namespace {

// A combo over `names` (shown through tr()); true when the choice changed.
template <std::size_t N>
bool choice(const char* label, int& index, const std::array<const char*, N>& names, int count = static_cast<int>(N)) {
    bool changed = false;
    index = std::clamp(index, 0, count - 1);
    if (ImGui::BeginCombo(label, tr(names[static_cast<std::size_t>(index)]))) {
        for (int i = 0; i < count; ++i)
            if (ImGui::Selectable(tr(names[static_cast<std::size_t>(i)]), i == index)) {
                changed = i != index;
                index = i;
            }
        ImGui::EndCombo();
    }
    return changed;
}

bool int_field(const char* label, int& v, int lo, int hi) {
    int x = v;
    ImGui::InputInt(label, &x);
    x = std::clamp(x, lo, hi);
    if (x == v) return false;
    v = x;
    return true;
}

constexpr std::array<const char*, 4> kMlpData{"spirals", "circles", "xor", "blobs"};
constexpr std::array<const char*, 6> kNorms{"none", "batch", "layer", "group", "rms", "instance"};
constexpr const auto& kNormValues = kTrainNorms;

bool same_config(const train::TrainConfig& a, const train::TrainConfig& b) {
    return a.model == b.model && a.depth == b.depth && a.width == b.width && a.channels == b.channels &&
           a.activation == b.activation && a.norm == b.norm && a.groups == b.groups && a.norm_after == b.norm_after &&
           a.data == b.data && a.classes == b.classes && a.samples == b.samples && a.noise == b.noise &&
           a.data_seed == b.data_seed && a.batch == b.batch && a.steps == b.steps && a.lr == b.lr &&
           a.optimizer == b.optimizer && a.momentum == b.momentum && a.seed == b.seed;
}

// The model and the data (shared by every run).
void model_settings(train::TrainConfig& c) {
    const bool cnn = c.model == train::TrainModel::Cnn;
    int model = cnn ? 1 : 0;
    if (choice(tr_id("model", "model").c_str(), model, std::array<const char*, 2>{"mlp", "cnn"})) {
        c.model = model == 1 ? train::TrainModel::Cnn : train::TrainModel::Mlp;
        c.data = model == 1 ? "textures" : "spirals";
        if (model == 0 && c.norm == train::TrainNorm::Instance) c.norm = train::TrainNorm::Batch;
        if (model == 0) c.classes = std::min(c.classes, 4);
    }
    if (c.model == train::TrainModel::Mlp) {
        int d = static_cast<int>(std::find(kMlpData.begin(), kMlpData.end(), c.data) - kMlpData.begin());
        if (choice(tr_id("data", "data").c_str(), d, kMlpData)) {
            c.data = kMlpData[static_cast<std::size_t>(d)];
            if (c.data == "circles" || c.data == "xor") c.classes = 2;
        }
    } else {
        ImGui::TextUnformatted(tr("data: textures (16×16)"));
    }
    const bool two = c.data == "circles" || c.data == "xor";
    if (!two) int_field(tr_id("classes", "classes").c_str(), c.classes, 2, c.model == train::TrainModel::Cnn ? 6 : 4);
    int_field(tr_id("depth", "depth").c_str(), c.depth, 1, 8);
    if (c.model == train::TrainModel::Mlp)
        int_field(tr_id("width", "width").c_str(), c.width, 1, 256);
    else
        int_field(tr_id("channels", "channels").c_str(), c.channels, 1, 32);
}

// The norm, the activation and the optimizer (each run's own).
void run_settings(train::TrainConfig& c) {
    const bool cnn = c.model == train::TrainModel::Cnn;
    int n = static_cast<int>(std::find(kNormValues.begin(), kNormValues.end(), c.norm) - kNormValues.begin());
    if (choice(tr_id("norm", "norm").c_str(), n, kNorms, cnn ? 6 : 5))
        c.norm = kNormValues[static_cast<std::size_t>(n)];
    if (c.norm == train::TrainNorm::Group) int_field(tr_id("groups G", "groups").c_str(), c.groups, 1, 256);
    int act = static_cast<int>(c.activation);
    if (choice(tr_id("activation", "activation").c_str(), act, std::array<const char*, 3>{"relu", "tanh", "sigmoid"}))
        c.activation = static_cast<train::TrainActivation>(act);
    int place = c.norm_after ? 1 : 0;
    if (choice(tr_id("placement", "placement").c_str(), place,
               std::array<const char*, 2>{"Linear → Norm → Act", "Linear → Act → Norm"}))
        c.norm_after = place == 1;
    int opt = static_cast<int>(c.optimizer);
    if (choice(tr_id("optimizer", "optimizer").c_str(), opt, std::array<const char*, 2>{"sgd", "adam"}))
        c.optimizer = static_cast<train::TrainOptimizer>(opt);
    ImGui::InputDouble(tr_id("learning rate", "lr").c_str(), &c.lr, 0, 0, "%.4g");
    if (c.optimizer == train::TrainOptimizer::Sgd)
        ImGui::InputDouble(tr_id("momentum", "momentum").c_str(), &c.momentum, 0, 0, "%.3g");
}

// The batch, the steps and the seeds (shared by every run).
void order_settings(train::TrainConfig& c) {
    int_field(tr_id("batch size", "batch").c_str(), c.batch, 1, 512);
    int_field(tr_id("steps", "steps").c_str(), c.steps, 1, 20000);
    int seed = static_cast<int>(c.seed), data_seed = static_cast<int>(c.data_seed);
    if (int_field(tr_id("seed", "seed").c_str(), seed, 0, 1 << 30)) c.seed = static_cast<std::uint64_t>(seed);
    if (int_field(tr_id("data seed", "data_seed").c_str(), data_seed, 0, 1 << 30))
        c.data_seed = static_cast<std::uint64_t>(data_seed);
}

}  // namespace

std::array<float, 2> item_centre() {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return {(a.x + b.x) / 2, (a.y + b.y) / 2};
}

namespace {

ImU32 run_colour(int colour) { return to_imgui(stat_color(colour, kMaxTrainRuns, GroupPalette::OkabeIto)); }

}  // namespace

train::TrainConfig default_train_config() {
    train::TrainConfig c;
    c.model = train::TrainModel::Mlp;
    c.data = "spirals";
    c.classes = 3;
    c.depth = 3;
    c.width = 16;
    c.norm = train::TrainNorm::Batch;
    c.batch = 32;
    c.steps = 1000;
    c.lr = 0.1;
    c.optimizer = train::TrainOptimizer::Sgd;
    c.momentum = 0.9;
    return c;
}

std::optional<std::string> TrainView::draw(TrainRunSet& runs, TrainSweep& sweep) {
    if (!runs.available()) {
        ImGui::TextWrapped("%s", tr("Training is not available on this backend."));
        return std::nullopt;
    }
    std::optional<std::string> err;
    if (!started_ && runs.runs().empty()) err = runs.start(default_train_config());
    started_ = true;
    selected_ = std::clamp(selected_, 0, std::max(0, static_cast<int>(runs.runs().size()) - 1));
    if (auto e = toolbar(runs)) err = e;
    run_rows(runs);
    const float avail_w = ImGui::GetContentRegionAvail().x;
    const float side_w = std::min(avail_w * 0.4f, ImGui::GetFontSize() * 20);
    const bool beside = avail_w > ImGui::GetFontSize() * 40;  // settings beside the curves, else under them
    if (beside) {
        ImGui::BeginChild("##train_settings", ImVec2(side_w, 0), true);
        if (auto e = settings(runs)) err = e;
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##train_curves", ImVec2(0, 0), false);
        if (auto e = tabs(runs, sweep, ImGui::GetContentRegionAvail().y)) err = e;
        ImGui::EndChild();
    } else {
        if (auto e = tabs(runs, sweep, std::max(ImGui::GetFontSize() * 30, ImGui::GetContentRegionAvail().y * 0.7f)))
            err = e;
        if (auto e = settings(runs)) err = e;
    }
    return err;
}

std::optional<std::string> TrainView::tabs(const TrainRunSet& runs, TrainSweep& sweep, float height) {
    std::optional<std::string> err;
    const float top = ImGui::GetCursorPosY();
    if (!ImGui::BeginTabBar("##train_tabs")) return err;
    auto room = [&] { return std::max(1.0f, height - (ImGui::GetCursorPosY() - top)); };
    if (ImGui::BeginTabItem(tr_id("Curves", "curves").c_str())) {
        plots(runs, ImGui::GetContentRegionAvail().x, room());
        ImGui::EndTabItem();
    }
    const ImGuiTabItemFlags flags = sweep_tab_ ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
    const bool sweep_open = ImGui::BeginTabItem(tr_id("Sweep", "sweep").c_str(), nullptr, flags);
    sweep_open_ = sweep_open;
    if (sweep_open) sweep_tab_ = false;  // shown: asked for until then (a tab selected shows the next frame)
    sweep_spots_[0] = item_centre();
    if (sweep_open) {
        err = sweep_panel(runs, sweep, ImGui::GetContentRegionAvail().x, room());
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    return err;
}

void TrainView::plots(const TrainRunSet& runs, float width, float height) {
    const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
    std::optional<int> layer;
    if (!train_boundaries_shown(runs)) {  // the curves over the layers
        const float layers_h = std::floor(height * 0.35f);
        train_curves(runs, width, height - layers_h - gap.y);
        layer = train_layers(runs, selected_, width, layers_h, inspect_buttons_);
    } else {  // the curves over the boundaries (squares, side by side) and the layers beside them
        const float curves_h = std::floor(height * 0.5f), low = height - curves_h - gap.y;
        train_curves(runs, width, curves_h);
        const auto n = static_cast<float>(runs.runs().size());
        const float square = low - 2 * ImGui::GetTextLineHeightWithSpacing();
        const float bw = std::floor(std::clamp(n * square + (n - 1) * gap.x, width * 0.3f, width * 0.6f));
        ImGui::BeginGroup();
        train_boundaries(runs, bw, low);
        ImGui::EndGroup();
        ImGui::SameLine();  // the rest of the row (the boundaries' title may be wider than their squares)
        layer = train_layers(runs, selected_, std::max(1.0f, ImGui::GetContentRegionAvail().x), low, inspect_buttons_);
    }
    if (layer) inspect_ = std::make_pair(selected_, *layer);
}

std::optional<std::string> TrainView::toolbar(TrainRunSet& runs) {
    std::optional<std::string> err;
    const bool any = !runs.runs().empty();
    ImGui::BeginDisabled(!any || runs.done());
    if (ImGui::Button(runs.playing() ? tr_id("Pause", "play").c_str() : tr_id("Play", "play").c_str()))
        runs.play(!runs.playing());
    ImGui::SameLine();
    if (ImGui::Button(tr_id("One step", "step").c_str())) runs.step_once();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!any);
    if (ImGui::Button(tr_id("Reset", "reset").c_str())) {
        runs.play(false);
        err = runs.reset();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!any || static_cast<int>(runs.runs().size()) >= kMaxTrainRuns);
    if (ImGui::Button(tr_id("Add run", "add").c_str())) {
        err = runs.add_copy(selected_);
        if (!err) selected_ = static_cast<int>(runs.runs().size()) - 1;
        editing_.reset();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(runs.runs().size() < 2);
    if (ImGui::Button(tr_id("Remove run", "remove").c_str())) {
        runs.remove(selected_);
        selected_ = std::max(0, selected_ - 1);
        editing_.reset();
    }
    ImGui::EndDisabled();
    if (runs.frames() > 0) {
        ImGui::SameLine();
        ImGui::TextDisabled(tr("%.0f fps, %.0f steps/s"), runs.mean_fps(), runs.steps_per_second());
    }
    return err;
}

void TrainView::run_rows(const TrainRunSet& runs) {
    const float swatch = ImGui::GetTextLineHeight();
    for (int i = 0; i < static_cast<int>(runs.runs().size()); ++i) {
        const TrainRun& r = runs.runs()[static_cast<std::size_t>(i)];
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + swatch, p.y + swatch), run_colour(r.colour));
        ImGui::Dummy(ImVec2(swatch, swatch));
        ImGui::SameLine();
        char line[256];
        const TrainCurves& c = r.curves;
        int n =
            std::snprintf(line, sizeof line, tr("%s: step %d / %d"), r.label().c_str(), r.steps_done, r.config.steps);
        if (!c.loss.empty())
            n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), tr(", batch loss %.3f acc %.2f"),
                               c.loss.back(), c.acc.back());
        if (!c.val_loss.empty()) {
            // The gap between the training batch (train mode) and the validation set (eval mode).
            std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n),
                          tr(", validation loss %.3f acc %.2f; gap: acc %+.2f, loss %+.3f"), c.val_loss.back(),
                          c.val_acc.back(), c.acc.back() - c.val_acc.back(), c.loss.back() - c.val_loss.back());
        }
        if (ImGui::Selectable((std::string(line) + "##run" + std::to_string(i)).c_str(), i == selected_)) {
            selected_ = i;
            editing_.reset();
        }
        if (!r.device) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", tr("(no device)"));
        }
    }
}

std::optional<std::string> TrainView::settings(TrainRunSet& runs) {
    if (runs.runs().empty()) return std::nullopt;
    const TrainRun& run = runs.runs()[static_cast<std::size_t>(selected_)];
    if (!editing_) editing_ = run.config;
    train::TrainConfig& c = *editing_;
    ItemWidth width(ImGui::GetFontSize() * 11.5f);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(run_colour(run.colour)), tr("Run %d: %s"), selected_ + 1,
                       run.label().c_str());
    run_settings(c);
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", tr("every run: the model, the data, the batches, the seeds"));
    ImGui::PopStyleColor();
    model_settings(c);
    order_settings(c);
    if (same_config(c, run.config) || ImGui::IsAnyItemActive()) return std::nullopt;
    const bool was_playing = runs.playing();
    auto err = runs.edit(selected_, c);
    runs.play(was_playing);
    editing_.reset();  // on a refusal: the run's own config again
    return err;
}

}  // namespace normlab::views
