// TrainRunSet: the Train view's model without ImGui — up to four training runs on the same data and
// seed, each a TrainConfig and a TrainDevice made by the platform's factory (the desktop's wraps the
// Vulkan TrainRunner, the browser's the WebGPU runner; none: training is not available). Runs train
// in slices between frames: each frame tick() polls every busy run without blocking and, where its
// slice is done, reads its logs and submits the next one, sized by a SliceController so that a frame
// stays within its budget. Nothing here waits for the device while a run plays.
#pragma once
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/classroom/train_scene.hpp"
#include "normlab/views/train_strips.hpp"
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_device.hpp"
#include "normlab/train/train_plan.hpp"
#include "normlab/train/train_program.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab::views {

// The devices a platform's runs train on: `make` builds the device that runs a program (steps per
// submission as the int), `max_storage_buffers` is that device's storage-buffer bindings per shader stage,
// which the plan may use (train_plan.hpp's TrainPlanOptions). Without `make` the backend does not train.
struct TrainDeviceFactory {
    std::function<std::unique_ptr<train::TrainDevice>(train::TrainProgram, int)> make;
    std::uint32_t max_storage_buffers = train::TrainPlanOptions{}.max_storage_buffers;
    explicit operator bool() const { return static_cast<bool>(make); }
};

inline constexpr int kMaxTrainRuns = 4;
inline constexpr int kTrainEvalEvery = 10;  // the validation set after every 10th step (and the last)
// Steps recorded in one submission; shorter slices queue single steps.
inline constexpr int kTrainStepsPerSubmit = 8;

// The size of a run's next slice, from how the last one went: it grows by a quarter while slices
// finish within a frame and frames stay within the budget, and shrinks by a quarter when frames take
// longer, by half past 1.5 times the budget (a slice on the device delays the frame drawn after it on
// the same queue). Where frames take longer than the budget whatever the slices (a slow or busy
// machine), every slice is its shortest (one step for the view's runs): the window's frame rate comes
// before the training's speed.
class SliceController {
public:
    static constexpr int kMinSteps = 1, kMaxSteps = 256;
    // `min_steps`: the shortest slice (the sweep's: one recorded submission, however slow the frames).
    explicit SliceController(double budget_ms = 30.0, int min_steps = kMinSteps)
        : budget_ms_(budget_ms), min_steps_(min_steps), steps_(std::max(4, min_steps)) {}
    // The slice submitted last finished after `late_frames` frames that found it busy, with frames of
    // `frame_ms` (the recent mean) meanwhile.
    void finished(int late_frames, double frame_ms);
    int steps() const { return steps_; }
    double budget_ms() const { return budget_ms_; }

private:
    double budget_ms_;
    int min_steps_;
    int steps_;
};

// One run's logs as read from its device: the batch's loss and accuracy per step run, and the
// validation set's at the evaluated steps (1-based step counts: after that many steps).
struct TrainCurves {
    std::vector<float> loss, acc;
    std::vector<int> val_step;
    std::vector<float> val_loss, val_acc;
};

// The mlp's decision boundary: its eval-mode forward on a kBoundaryGrid² grid over the data's extent
// (planned after the validation set, train_plan.hpp's eval_grid), read back after an evaluation.
inline constexpr int kBoundaryGrid = 40;
struct TrainBoundary {
    float x0 = -1, y0 = -1, x1 = 1, y1 = 1;  // the grid's extent: kBoundaryGrid cells a side, a point each
    std::vector<std::uint8_t> cls;           // the arg-max class per point, row by row (y0 first)
    std::vector<float> confidence;           // its softmax probability
    int at_step = -1;                        // the steps run when it was read (-1: not yet)
    std::chrono::steady_clock::time_point read_at{};
    std::vector<float> points;  // training points (x, y, class) shown over it
};

struct TrainRun {
    train::TrainConfig config;
    int colour = 0;  // the run's colour, an index into the view's palette
    std::unique_ptr<train::TrainDevice> device;
    SliceController slice;
    TrainCurves curves;
    TrainBoundary boundary;  // the mlp's (empty for the cnn)
    TrainStrips strips;      // each layer's histograms over the steps (slices end at their columns' steps)
    bool busy = false;       // a slice is on the device
    int late_frames = 0;
    int steps_done = 0;  // as of the last poll that found the device idle
    std::string label() const;
};

// What a set's runs plan and read besides their curves. The Train view shows both; a sweep shows neither,
// so its runs plan no boundary grid (the validation pass evaluates the validation set only, as
// normlab-cli's does), read no histograms, and their slices are not cut at the strips' columns.
struct TrainRunExtras {
    bool boundary = true;  // the mlp's decision boundary (kBoundaryGrid² points after the validation set)
    bool strips = true;    // each layer's histogram columns
    // The slices' frame budget and shortest slice (SliceController): the view's runs keep frames under 30 ms
    // down to one step a frame; a sweep's (nothing drawn per step) take frames up to 50 ms (20 fps) and at
    // least one recorded submission (kTrainStepsPerSubmit steps) a frame.
    double slice_budget_ms = 30.0;
    int slice_min_steps = SliceController::kMinSteps;
};

class TrainRunSet {
public:
    using Clock = std::chrono::steady_clock;
    explicit TrainRunSet(TrainDeviceFactory factory = {}, TrainRunExtras extras = {});
    void set_factory(TrainDeviceFactory factory);
    bool available() const { return static_cast<bool>(factory_); }
    const TrainDeviceFactory& factory() const { return factory_; }

    // The first run, with `c`, replacing every run (an error line when `c` is refused or the device fails).
    std::optional<std::string> start(const train::TrainConfig& c);
    // Another run: a copy of run `from`'s config with the next norm no run has (up to kMaxTrainRuns).
    std::optional<std::string> add_copy(int from);
    std::optional<std::string> add(const train::TrainConfig& c);
    void remove(int i);
    // Run i's config replaced (the run starts again); a field every run shares (the data, its seeds,
    // the batch, the steps) is set in every run, which start again too.
    std::optional<std::string> edit(int i, const train::TrainConfig& c);
    // Every run from its first step again (new devices: new initial parameters' upload, empty logs).
    std::optional<std::string> reset();
    // A scene's or lesson step's runs (view.train): where the set holds exactly those configs it keeps
    // them as they are (their progress too), else they replace every run; then plays if `t` says so.
    std::optional<std::string> show(const classroom::TrainScene& t);
    // The runs' configs as a scene holds them, "play" where they play or have finished.
    classroom::TrainScene scene() const;
    // Whether the set holds exactly `t`'s configs, in order.
    bool holds(const classroom::TrainScene& t) const;
    // The runs' steps and logs as a lesson step's or an experiment's text reads them (lesson_text.hpp's
    // run[i]) where the set holds exactly `own`'s runs, the text's own; none otherwise (no `own`, or the
    // runs were changed since).
    std::vector<classroom::LessonRun> lesson_runs(const std::optional<classroom::TrainScene>& own) const;

    void play(bool on) { playing_ = on && !runs_.empty(); }
    bool playing() const { return playing_; }
    // One slice of one step for every run that is not busy (also while paused).
    void step_once();
    // One frame: every busy run polled; logs read and the next slice submitted where one is done and
    // the set plays. Returns whether a run is busy or playing (the next frame must be drawn).
    bool tick(Clock::time_point now = Clock::now());
    // Everything finished (never called while playing in a frame: tests and teardown).
    void finish();

    const std::vector<TrainRun>& runs() const { return runs_; }
    bool done() const;  // every run has run all its steps
    double frame_ms() const { return frame_ms_; }
    long frames() const { return frames_; }
    // Steps every run has run together, per second of the frames that trained, and those frames per
    // second (0 before any; both since the last reset).
    double steps_per_second() const;
    double mean_fps() const;

private:
    std::optional<std::string> make_device(TrainRun& r);
    void read_logs(TrainRun& r);
    void submit(TrainRun& r, int steps);
    // After an evaluation not yet shown, at most every kBoundaryEveryMs (and after the last step).
    void read_boundary(TrainRun& r, Clock::time_point now);

    TrainDeviceFactory factory_;
    TrainRunExtras extras_;
    std::vector<TrainRun> runs_;
    bool playing_ = false;
    std::optional<Clock::time_point> last_tick_;
    double frame_ms_ = 0;
    long frames_ = 0;
    double train_seconds_ = 0;
    long train_steps_ = 0;
    long intervals_ = 0;  // frame intervals in train_seconds_
};

// The fields every run of a set shares (the same data, the same batches, the same initial draw).
void share_data_fields(train::TrainConfig& to, const train::TrainConfig& from);
// Uploads the data and initial parameters of `c` into a device made for its program (plan_training's),
// with the mlp's boundary grid after the validation set where `boundary` (its extent into `b`, and points
// to show; else `b` is left empty).
void upload_train_inputs(train::TrainDevice& d, const train::TrainConfig& c, TrainBoundary& b, bool boundary = true);
// The program of `c` (the mlp's, with the boundary grid where `boundary`; or the cnn's) for a device that
// binds `max_storage_buffers` storage buffers per shader stage.
train::TrainProgram plan_training(const train::TrainConfig& c, bool boundary, std::uint32_t max_storage_buffers);

}  // namespace normlab::views
