// TrainSweep: the Train view's sweep without ImGui — a grid of training runs over a base TrainConfig (the
// selected run's), one axis per swept key (engine/train's train_sweep.hpp: parsed and validated whole
// before any run starts), run one after another on devices from the platform's TrainDeviceFactory. The
// current run is a TrainRunSet of one run played in slices between frames (its SliceController, its
// polling: nothing waits for the device); a finished run's final numbers are kept (sweep_summary.hpp),
// its device freed. Progress, cancel, and the summary CSV (the CLI's columns) once every run finished.
// SweepFields: the Sweep tab's fields, which the user types and a scene's view.train.sweep sets.
#pragma once
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/classroom/train_scene.hpp"
#include "normlab/train/sweep_summary.hpp"
#include "normlab/views/train_runs.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace normlab::views {

class TrainSweep {
public:
    using Clock = TrainRunSet::Clock;
    enum class State { Empty, Running, Done, Cancelled, Failed };

    // Starts a sweep of `axes` over `base` (replacing the last one): an error line, and nothing changed,
    // when the grid is refused (a bad value, an invalid run, too many runs) or there is no factory.
    std::optional<std::string> start(TrainDeviceFactory factory, const train::TrainConfig& base,
                                     const std::vector<train::SweepAxis>& axes);
    // Whether the sweep of `axes` over `base` runs or has finished (what a scene's "start" says).
    bool holds(const train::TrainConfig& base, const std::vector<train::SweepAxis>& axes) const;
    // Stops after the runs finished so far (their results kept; no CSV: the sweep is not whole).
    void cancel();
    // One frame: the current run's slice polled and the next submitted; a finished run's results kept
    // and the next run started. Returns whether the sweep runs (the next frame must be drawn). A device
    // that fails ends the sweep (State::Failed, error()).
    bool tick(Clock::time_point now = Clock::now());

    State state() const { return state_; }
    // Counts the sweeps started (a view shows the axes of a sweep started elsewhere when it changes).
    int started() const { return started_; }
    bool running() const { return state_ == State::Running; }
    const std::string& error() const { return error_; }
    const std::vector<train::SweepAxis>& axes() const { return axes_; }
    const std::vector<train::SweepRun>& runs() const { return runs_; }
    // The finished runs' results, in the grid's order (results()[i] is runs()[i]'s).
    const std::vector<train::SweepResult>& results() const { return results_; }
    int total() const { return static_cast<int>(runs_.size()); }
    int finished() const { return static_cast<int>(results_.size()); }
    // The current run's steps run and steps (0, 0 when none runs).
    int current_steps() const;
    int current_total_steps() const;
    // "norm=group, batch=16": the current run's values (empty when none runs).
    std::string current_label() const;
    // The summary CSV (sweep_summary_csv: the CLI's columns); InputError unless every run finished.
    std::string csv() const;
    // The sweep as the text of a lesson step or experiment whose view.train is `own` reads it (sweep[i]): this
    // sweep's results where it is own's sweep (its axes over its base run), else own's grid with no results
    // (its numbers show "…"); no runs where own has no sweep.
    classroom::LessonSweep lesson_sweep(const std::optional<classroom::TrainScene>& own) const;

private:
    std::optional<std::string> start_run();

    TrainDeviceFactory factory_;
    // The run playing (none between sweeps: its device freed); the tab shows no boundary and no strips, and
    // its slices take frames up to 50 ms (20 fps) and one recorded submission at least (TrainRunExtras).
    TrainRunSet current_{
        {},
        TrainRunExtras{
            .boundary = false, .strips = false, .slice_budget_ms = 50.0, .slice_min_steps = kTrainStepsPerSubmit}};
    train::TrainConfig base_;
    std::vector<train::SweepAxis> axes_;
    std::vector<train::SweepRun> runs_;
    std::vector<train::SweepResult> results_;
    Clock::time_point run_started_{};
    State state_ = State::Empty;
    int started_ = 0;
    std::string error_;
};

// The Sweep tab's fields (no ImGui): the norms checked (train::kViewNorms' order), the batch sizes' and the
// learning rates' lists as typed. What the user types and what a scene sets go through these.
struct SweepFields {
    std::array<bool, train::kViewNorms.size()> norms{false, true, false, true, false, false};  // batch, group
    std::array<char, train::kSweepListChars + 1> batches{"2,4,8,16,32"}, lrs{};

    // Set to `axes` (a started sweep's, a scene's): their norms checked, their batch sizes and learning rates
    // listed; a key not among them is cleared.
    void set(const std::vector<train::SweepAxis>& axes);
    // The fields as axes (train::sweep_axes; instance only for a `cnn`). InputError (one line) for a bad list.
    std::vector<train::SweepAxis> axes(bool cnn) const;
};

}  // namespace normlab::views
