// TrainView: the Train view of the shell (both apps) in Dear ImGui, over a TrainRunSet
// (train_runs.hpp): the selected run's model, data, norm and optimizer; play, pause, one step,
// reset; the runs side by side in their colours with their last losses and accuracies and each
// run's gap between the training batch and the validation set; the loss and accuracy curves,
// training and validation, drawn from the devices' logs (train_plot); the mlp's decision boundary per
// run (train_boundary); the selected run's layers, each a strip of its histograms over the steps and an
// Inspect button (train_strips_view).
#pragma once
#include "normlab/views/train_runs.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::views {

// The Train view's first run: an mlp on three spirals (what the view starts with).
train::TrainConfig default_train_config();

class TrainView {
public:
    // Draws the view in the current window: an error line (a refused edit, a device that failed)
    // for the status bar, or nothing. The set starts with one run of default_train_config() the
    // first time it is drawn empty.
    std::optional<std::string> draw(TrainRunSet& runs);
    int selected() const { return selected_; }
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

    int selected_ = 0;
    bool started_ = false;
    std::optional<train::TrainConfig> editing_;  // the copy being edited (of run selected_)
    std::optional<std::pair<int, int>> inspect_;
    std::vector<std::array<float, 2>> inspect_buttons_;
};

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
