// Inspect layer: a hidden layer of a training run opened as the session's tensor, so normlab's own
// heatmap, statistics, Explain and histogram panels show the norm's input of the run's last batch — which
// elements share a statistic in a real network. The layer is read back from the run's device
// (engine/train's read_train_layer, both runners), written as a .npy file and opened through the
// Session's one edit path, as a file the user opens: the mlp's [B, W] and the cnn's [B, C, H, W] with
// the run's norm as the method (BatchNorm1d/2d, LayerNorm over every dim but N, GroupNorm with the run's G,
// InstanceNorm2d with affine, RMSNorm), its γ, β and BatchNorm's running statistics as they are now. A run
// without a norm keeps the session's method. No ImGui here.
#pragma once
#include "normlab/views/train_runs.hpp"

#include "normlab/session/session.hpp"
#include "normlab/train/train_layer.hpp"

#include <optional>
#include <string>

namespace normlab::views {

// The state that shows `layer` (read from a run of `c`) as the file `path`, from the session's `current`.
core::State inspect_state(const core::State& current, const train::TrainConfig& c, const train::TrainLayerRead& layer,
                          const std::string& path);

// The file a layer is written to: "<dir>/train-run<R>-<norm>-layer<L>-step<S>.npy" (1-based R and L).
std::string inspect_file(const std::string& dir, int run, const train::TrainConfig& c,
                         const train::TrainLayerRead& layer);

// The inspect files a folder keeps: writing one more removes the oldest beyond this many.
inline constexpr int kInspectFilesKept = 8;

// Removes the oldest inspect files (inspect_file's names) in `dir` so that at most `kept` remain, never
// the file `keep`. A file that cannot be removed is left.
void prune_inspect_files(const std::string& dir, const std::string& keep, int kept = kInspectFilesKept);

// Reads layer `layer` of run `run`, writes it into `dir` (made when missing; "" the system's temporary
// folder's normlab-train; written whole or not at all), keeps the folder's newest kInspectFilesKept
// inspect files (prune_inspect_files) and applies inspect_state through Session::apply. Returns the refusal (no
// such run or layer, no step run yet, a lesson's lock, a file that cannot be written), or nothing.
std::optional<std::string> inspect_train_layer(session::Session& session, TrainRunSet& runs, int run, int layer,
                                               const std::string& dir = "");

}  // namespace normlab::views
