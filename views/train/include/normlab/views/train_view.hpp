// TrainView: the Train view of the shell (both apps) in Dear ImGui, over a TrainRunSet
// (train_runs.hpp): the selected run's model, data, norm and optimizer; play, pause, one step,
// reset; the runs side by side in their colours with their last losses and accuracies and each
// run's gap between the training batch and the validation set; the loss and accuracy curves,
// training and validation, drawn from the devices' logs (train_plot); the mlp's decision boundary per
// run (train_boundary); the selected run's layers, each a strip of its histograms over the steps and an
// Inspect button (train_strips_view); the Sweep tab over the selected run's config (train_sweep_view:
// the keys swept, Start / Cancel, progress, the finished runs' table, the figure, Export CSV / PNG).
#pragma once
#include "normlab/views/train_runs.hpp"
#include "normlab/views/train_sweep.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::views {

// The norms in the view's order (the norm combo's, the sweep's checkboxes; instance: the cnn's only).
inline constexpr const auto& kTrainNorms = train::kViewNorms;

// The Train view's first run: an mlp on three spirals (what the view starts with).
train::TrainConfig default_train_config();
// A sweep's base: train::sweep_base of run `selected`'s config (default_train_config() when there is none).
train::TrainConfig sweep_base(const TrainRunSet& runs, int selected);

// A file the view asks the platform to save (ShellPlatform::save_export, save_export_png).
struct TrainExport {
    std::string name, bytes;    // bytes: the CSV's (not for a PNG)
    bool png = false;           // the window's pixels in `crop` after this frame
    std::array<int, 4> crop{};  // x, y, w, h
};

class TrainView {
public:
    // Draws the view in the current window: an error line (a refused edit, a device that failed)
    // for the status bar, or nothing. The set starts with one run of default_train_config() the
    // first time it is drawn empty.
    std::optional<std::string> draw(TrainRunSet& runs, TrainSweep& sweep);
    // Where the last draw put the Sweep tab, the batch sizes' field and the Start sweep button (their
    // centres; the browser test clicks them).
    const std::array<std::array<float, 2>, 3>& sweep_spots() const { return sweep_spots_; }
    // The files asked for in the last draw (Export CSV, Export PNG), once.
    std::vector<TrainExport> take_exports() { return std::exchange(exports_, {}); }
    // Shows the Sweep tab at the next draw and, with `export_when_done`, once the sweep has finished,
    // exports its CSV and PNG as the buttons do (the app's --train-sweep, --train-sweep-export).
    void show_sweep(bool export_when_done) {
        sweep_tab_ = true;
        export_when_done_ = export_when_done;
    }
    int selected() const { return selected_; }
    // A scene's sweep (view.train.sweep; the runs already shown): its run selected, the Sweep tab's fields
    // set to its axes as typing sets them, the tab shown at the next draw and, with "start", the sweep
    // started from the fields as Start sweep does (kept where it already runs or ran). An error line, or none.
    std::optional<std::string> open_sweep(const classroom::SceneSweep& s, const TrainRunSet& runs, TrainSweep& sweep);
    // The Sweep tab as a scene's sweep while it is shown and its fields make a grid (none otherwise): the
    // fields' axes, the selected run, "start" where the sweep of those fields runs or has finished.
    std::optional<classroom::SceneSweep> scene_sweep(const TrainRunSet& runs, const TrainSweep& sweep) const;
    const SweepFields& sweep_fields() const { return fields_; }
    // The layer whose Inspect button was pressed in the last draw (run, layer; 0-based), once.
    std::optional<std::pair<int, int>> take_inspect() { return std::exchange(inspect_, std::nullopt); }
    // Where the last draw put each layer's Inspect button (its top-left corner; the browser test clicks it).
    const std::vector<std::array<float, 2>>& inspect_buttons() const { return inspect_buttons_; }

private:
    std::optional<std::string> toolbar(TrainRunSet& runs);
    void run_rows(const TrainRunSet& runs);
    // The selected run's settings, edited in a copy applied once no widget is held.
    std::optional<std::string> settings(TrainRunSet& runs);
    // The curves over the boundaries over the selected run's layers, in `width` × `height`.
    void plots(const TrainRunSet& runs, float width, float height);
    // The Curves and Sweep tabs in the rest of the row, `height` high.
    std::optional<std::string> tabs(const TrainRunSet& runs, TrainSweep& sweep, float height);
    // The Sweep tab in `width` × `height` (train_sweep_view.cpp).
    std::optional<std::string> sweep_panel(const TrainRunSet& runs, TrainSweep& sweep, float width, float height);
    std::optional<std::string> sweep_controls(const TrainRunSet& runs, TrainSweep& sweep);
    // Start sweep: the fields' axes over the selected run (the button's path and a scene's).
    std::optional<std::string> start_sweep(const TrainRunSet& runs, TrainSweep& sweep) const;

    int selected_ = 0;
    bool started_ = false;
    std::optional<train::TrainConfig> editing_;  // the copy being edited (of run selected_)
    std::optional<std::pair<int, int>> inspect_;
    std::vector<std::array<float, 2>> inspect_buttons_;
    std::vector<TrainExport> exports_;
    std::array<std::array<float, 2>, 3> sweep_spots_{};
    SweepFields fields_;                 // the Sweep tab's fields
    std::array<int, 4> sweep_figure_{};  // where the figure was drawn last (x, y, w, h)
    int sweep_shown_ = 0;                // the sweep whose axes the fields hold (TrainSweep::started)
    bool sweep_tab_ = false, export_when_done_ = false;
    bool sweep_open_ = false;  // the Sweep tab was the one shown at the last draw
};

// The centre of the last item drawn (ImGui's screen pixels).
std::array<float, 2> item_centre();
// The plots: loss (left) and accuracy (right) over the steps, every run in its colour; the batch's
// values thin, the validation set's thick, in `width` × `height` (train_plot.cpp).
void train_curves(const TrainRunSet& runs, float width, float height);
// The mlp runs' decision boundaries side by side in `width` × `height` (train_boundary.cpp), and whether
// a run has one.
void train_boundaries(const TrainRunSet& runs, float width, float height);
bool train_boundaries_shown(const TrainRunSet& runs);
// Run `selected`'s layers in `width` × `height` (train_strips_view.cpp): per layer its Inspect button
// and its strip. Returns the layer whose button was pressed; `buttons` gets each button's top-left corner.
std::optional<int> train_layers(const TrainRunSet& runs, int selected, float width, float height,
                                std::vector<std::array<float, 2>>& buttons);

}  // namespace normlab::views
