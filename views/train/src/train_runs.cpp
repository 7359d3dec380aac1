// TrainRunSet (train_runs.hpp): runs made, edited and reset; their slices polled and submitted per frame.
#include "normlab/views/train_runs.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_model_plan.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_options.hpp"
#include "normlab/train/train_params.hpp"
#include "normlab/train/train_plan.hpp"
#include "normlab/train/train_sweep.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace normlab::views {
namespace {

// A boundary's read waits for the queue (other runs' slices too): at most once a second a run.
constexpr auto kBoundaryEvery = std::chrono::milliseconds(1000);
constexpr std::size_t kBoundaryPoints = 200;  // training points drawn over the boundary

std::optional<std::string> refused(const train::TrainConfig& c) {
    try {
        train::validate_train_config(c);
    } catch (const std::exception& e) {
        return core::error_line(e);
    }
    return std::nullopt;
}

}  // namespace

void SliceController::finished(int late_frames, double frame_ms) {
    const double budget = budget_ms_;
    if (frame_ms > 1.5 * budget)
        steps_ = std::max(min_steps_, steps_ / 2);
    else if (frame_ms > budget)
        steps_ = std::max(min_steps_, steps_ - std::max(1, steps_ / 4));
    else if (late_frames == 0)
        steps_ = std::min(kMaxSteps, steps_ + std::max(1, steps_ / 4));
}

std::string TrainRun::label() const {
    std::string s = train::train_norm_name(config.norm);
    if (config.norm == train::TrainNorm::Group) s += " G=" + std::to_string(config.groups);
    if (config.norm != train::TrainNorm::None && config.norm_after) s += " (after)";
    return s;
}

void share_data_fields(train::TrainConfig& to, const train::TrainConfig& from) {
    to.model = from.model;
    to.data = from.data;
    to.classes = from.classes;
    to.samples = from.samples;
    to.noise = from.noise;
    to.data_seed = from.data_seed;
    to.batch = from.batch;
    to.steps = from.steps;
    to.seed = from.seed;
}

train::TrainProgram plan_training(const train::TrainConfig& c, bool boundary, std::uint32_t max_storage_buffers) {
    if (c.model == train::TrainModel::Cnn) return train::plan_cnn_training(c);
    train::TrainPlanOptions o;
    o.max_storage_buffers = max_storage_buffers;
    if (boundary) o.eval_grid = static_cast<std::uint32_t>(kBoundaryGrid * kBoundaryGrid);
    return train::plan_mlp_training(c, o);
}

namespace {

// The grid's extent: the training points' square bounding box with a margin; the grid's points
// after the validation set in `x_val`; some training points to draw.
void boundary_grid(const train::TrainDataSet& train, std::vector<float>& x_val, TrainBoundary& b) {
    float lo = 0, hi = 0;
    for (float v : train.x) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const float pad = 0.1f * (hi - lo) + 1e-3f;
    b = {};
    b.x0 = b.y0 = lo - pad;
    b.x1 = b.y1 = hi + pad;
    const float cell = (b.x1 - b.x0) / kBoundaryGrid;
    for (int j = 0; j < kBoundaryGrid; ++j)
        for (int i = 0; i < kBoundaryGrid; ++i) {
            x_val.push_back(b.x0 + (static_cast<float>(i) + 0.5f) * cell);
            x_val.push_back(b.y0 + (static_cast<float>(j) + 0.5f) * cell);
        }
    const std::size_t n = train.y.size(), every = std::max<std::size_t>(1, n / kBoundaryPoints);
    for (std::size_t k = 0; k < n; k += every)
        b.points.insert(b.points.end(), {train.x[2 * k], train.x[2 * k + 1], static_cast<float>(train.y[k])});
}

}  // namespace

void upload_train_inputs(train::TrainDevice& d, const train::TrainConfig& c, TrainBoundary& b, bool boundary) {
    const train::TrainData data = train::make_train_data(c);
    auto up = [&d](const char* name, const auto& v) { d.upload(name, v.data(), v.size() * 4); };
    up("x_train", data.train.x);
    up("y_train", data.train.y);
    std::vector<float> x_val = data.val.x;
    b = {};
    if (boundary && c.model == train::TrainModel::Mlp) boundary_grid(data.train, x_val, b);
    up("x_val", x_val);
    up("y_val", data.val.y);
    up("batches", data.batches);
    for (const auto& t : c.model == train::TrainModel::Cnn ? train::init_cnn_params(c) : train::init_mlp_params(c))
        d.upload(t.name, t.values.data(), t.values.size() * 4);
}

TrainRunSet::TrainRunSet(TrainDeviceFactory factory, TrainRunExtras extras)
    : factory_(std::move(factory)), extras_(extras) {}

void TrainRunSet::set_factory(TrainDeviceFactory factory) {
    runs_.clear();
    playing_ = false;
    factory_ = std::move(factory);
}

std::optional<std::string> TrainRunSet::make_device(TrainRun& r) {
    r.device.reset();  // its destructor waits for what it had queued
    r.curves = {};
    r.busy = false;
    r.late_frames = 0;
    r.steps_done = 0;
    r.strips = extras_.strips ? make_strips(r.config) : TrainStrips{};  // no layers: no columns, slices uncut
    r.slice = SliceController(extras_.slice_budget_ms, extras_.slice_min_steps);
    if (!factory_) return std::string("training is not available on this backend");
    try {
        r.device = factory_.make(plan_training(r.config, extras_.boundary, factory_.max_storage_buffers),
                                 kTrainStepsPerSubmit);
        if (!r.device) return std::string("training is not available on this backend");
        upload_train_inputs(*r.device, r.config, r.boundary, extras_.boundary);
    } catch (const std::exception& e) {
        r.device.reset();
        return core::error_line(e);
    }
    return std::nullopt;
}

std::optional<std::string> TrainRunSet::start(const train::TrainConfig& c) {
    if (auto err = refused(c)) return err;
    runs_.clear();
    playing_ = false;
    return add(c);
}

std::optional<std::string> TrainRunSet::add(const train::TrainConfig& c) {
    if (static_cast<int>(runs_.size()) >= kMaxTrainRuns) return "at most 4 runs side by side";
    train::TrainConfig cc = c;
    if (!runs_.empty()) share_data_fields(cc, runs_.front().config);
    if (auto err = refused(cc)) return err;
    std::array<bool, kMaxTrainRuns> used{};
    for (const auto& r : runs_) used[static_cast<std::size_t>(r.colour)] = true;
    TrainRun r;
    r.config = cc;
    r.colour = static_cast<int>(std::find(used.begin(), used.end(), false) - used.begin());
    auto err = make_device(r);
    if (!err) runs_.push_back(std::move(r));
    return err;
}

std::optional<std::string> TrainRunSet::add_copy(int from) {
    if (from < 0 || from >= static_cast<int>(runs_.size())) return "no run to copy";
    train::TrainConfig c = runs_[static_cast<std::size_t>(from)].config;
    const bool cnn = c.model == train::TrainModel::Cnn;
    // The norms in the order a comparison wants them; the first no run has (else run `from`'s again).
    for (train::TrainNorm n : {train::TrainNorm::Batch, train::TrainNorm::None, train::TrainNorm::Layer,
                               train::TrainNorm::Group, train::TrainNorm::Rms, train::TrainNorm::Instance}) {
        if (n == train::TrainNorm::Instance && !cnn) continue;
        const bool taken =
            std::any_of(runs_.begin(), runs_.end(), [n](const TrainRun& r) { return r.config.norm == n; });
        if (taken) continue;
        c.norm = n;
        if (n == train::TrainNorm::Group) c.groups = train::default_train_groups(c);
        break;
    }
    return add(c);
}

void TrainRunSet::remove(int i) {
    if (i < 0 || i >= static_cast<int>(runs_.size())) return;
    runs_.erase(runs_.begin() + i);
    if (runs_.empty()) playing_ = false;
}

std::optional<std::string> TrainRunSet::edit(int i, const train::TrainConfig& c) {
    if (i < 0 || i >= static_cast<int>(runs_.size())) return "no such run";
    if (auto err = refused(c)) return err;
    TrainRun& r = runs_[static_cast<std::size_t>(i)];
    const bool shared = !train::same_data_fields(r.config, c);
    if (shared)  // every run must still be valid with the new data fields before any changes
        for (const auto& other : runs_) {
            train::TrainConfig o = other.config;
            share_data_fields(o, c);
            if (auto err = refused(o)) return err;
        }
    r.config = c;
    if (!shared) return make_device(r);
    for (auto& other : runs_) share_data_fields(other.config, c);
    return reset();
}

std::optional<std::string> TrainRunSet::reset() {
    std::optional<std::string> first;
    for (auto& r : runs_)
        if (auto err = make_device(r); err && !first) first = err;
    train_seconds_ = 0;
    train_steps_ = 0;
    intervals_ = 0;
    return first;
}

bool TrainRunSet::holds(const classroom::TrainScene& t) const {
    if (t.runs.size() != runs_.size()) return false;
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (!(runs_[i].config == t.runs[i]) || !runs_[i].device) return false;
    return true;
}

std::optional<std::string> TrainRunSet::show(const classroom::TrainScene& t) {
    if (!holds(t)) {
        if (t.runs.empty()) return "a train object needs at least one run";
        for (std::size_t i = 0; i < t.runs.size(); ++i)
            if (auto err = i == 0 ? start(t.runs[i]) : add(t.runs[i])) return err;
    }
    if (t.play) play(true);
    return std::nullopt;
}

classroom::TrainScene TrainRunSet::scene() const {
    classroom::TrainScene t;
    for (const auto& r : runs_) t.runs.push_back(r.config);
    t.play = playing_ || done();
    return t;
}

std::vector<classroom::LessonRun> TrainRunSet::lesson_runs(const std::optional<classroom::TrainScene>& own) const {
    std::vector<classroom::LessonRun> out;
    if (!own || !holds(*own)) return out;
    for (const auto& r : runs_) {
        out.push_back(
            {r.config.steps, r.steps_done, r.curves.loss, r.curves.acc, r.curves.val_loss, r.curves.val_acc, {}});
        // Each layer's strip: its first column and the one at the last step (none before the run ends).
        for (const auto& cols : r.strips.layers) {
            if (cols.empty() || cols.back().step != r.config.steps) break;
            out.back().layers.push_back({std::sqrt(cols.front().hist.var), std::sqrt(cols.back().hist.var)});
        }
    }
    return out;
}

void TrainRunSet::submit(TrainRun& r, int steps) {
    const int last = r.config.steps;
    steps = std::min(steps, last - r.steps_done);
    if (steps <= 0) return;
    steps = strip_slice(r.strips, r.steps_done, steps);
    r.device->submit(steps, kTrainEvalEvery, r.steps_done + steps == last);
    // Asked at once, so that the next frame's poll can already find the slice done (a runner may arm
    // its completion signal at the first poll, as the Vulkan one queues its fence).
    r.device->poll();
    r.busy = true;
    r.late_frames = 0;
}

void TrainRunSet::step_once() {
    for (auto& r : runs_)
        if (r.device && !r.busy) submit(r, 1);
}

void TrainRunSet::read_logs(TrainRun& r) {
    r.steps_done = r.device->steps_run();
    const std::vector<float> log = r.device->log(), val = r.device->val_log();
    const auto n = static_cast<std::size_t>(r.steps_done);
    TrainCurves& c = r.curves;
    c.loss.resize(n);
    c.acc.resize(n);
    for (std::size_t t = 0; t < n; ++t) {
        c.loss[t] = log[2 * t];
        c.acc[t] = log[2 * t + 1];
    }
    c.val_step.clear();
    c.val_loss.clear();
    c.val_acc.clear();
    for (int s = 1; s <= r.steps_done; ++s) {
        if (s % kTrainEvalEvery != 0 && s != r.config.steps) continue;
        const auto t = static_cast<std::size_t>(s - 1);
        c.val_step.push_back(s);
        c.val_loss.push_back(val[2 * t]);
        c.val_acc.push_back(val[2 * t + 1]);
    }
}

void TrainRunSet::read_boundary(TrainRun& r, Clock::time_point now) {
    TrainBoundary& b = r.boundary;
    if (!extras_.boundary || r.config.model != train::TrainModel::Mlp || r.curves.val_step.empty() ||
        r.curves.val_step.back() <= b.at_step)
        return;
    if (now - b.read_at < kBoundaryEvery && r.steps_done < r.config.steps) return;
    // Nothing is queued (the poll said done): the download waits only for its own copy.
    const std::vector<float> logits = r.device->download("eval.logits");
    const auto k = static_cast<std::size_t>(r.config.classes);
    const std::size_t first = static_cast<std::size_t>(train::validation_samples(r.config)) * k;
    const std::size_t points = static_cast<std::size_t>(kBoundaryGrid * kBoundaryGrid);
    if (logits.size() < first + points * k) return;
    b.cls.assign(points, 0);
    b.confidence.assign(points, 0.0f);
    for (std::size_t i = 0; i < points; ++i) {
        const float* l = logits.data() + first + i * k;
        const std::size_t best = static_cast<std::size_t>(std::max_element(l, l + k) - l);
        double sum = 0;
        for (std::size_t j = 0; j < k; ++j) sum += std::exp(static_cast<double>(l[j] - l[best]));
        b.cls[i] = static_cast<std::uint8_t>(best);
        b.confidence[i] = static_cast<float>(1.0 / sum);
    }
    b.at_step = r.curves.val_step.back();
    b.read_at = now;
}

bool TrainRunSet::tick(Clock::time_point now) {
    double ms = 0;
    if (last_tick_) {
        ms = std::chrono::duration<double, std::milli>(now - *last_tick_).count();
        frame_ms_ = frame_ms_ == 0 ? ms : 0.8 * frame_ms_ + 0.2 * ms;
    }
    bool busy = false;
    for (auto& r : runs_) {
        if (!r.device) continue;
        if (r.busy) {
            if (!r.device->poll()) {  // never waits: the next frame asks again
                ++r.late_frames;
                busy = true;
                continue;
            }
            r.busy = false;
            const int before = r.steps_done;
            read_logs(r);
            train_steps_ += r.steps_done - before;
            r.slice.finished(r.late_frames, frame_ms_);
            record_strips(r.strips, *r.device, r.config, r.steps_done);
            read_boundary(r, now);
        }
        if (playing_) submit(r, r.slice.steps());
        busy = busy || r.busy;
    }
    if (playing_ && !busy) playing_ = false;  // every run has run all its steps
    if (!busy) {
        last_tick_.reset();
        return false;
    }
    if (last_tick_) {
        train_seconds_ += ms / 1000.0;
        ++intervals_;
    }
    ++frames_;
    last_tick_ = now;
    return true;
}

void TrainRunSet::finish() {
    for (auto& r : runs_) {
        if (!r.device || !r.busy) continue;
        r.device->finish();
        r.busy = false;
        const int before = r.steps_done;
        read_logs(r);
        train_steps_ += r.steps_done - before;
        record_strips(r.strips, *r.device, r.config, r.steps_done);
        read_boundary(r, Clock::now());
    }
}

bool TrainRunSet::done() const {
    return !runs_.empty() &&
           std::all_of(runs_.begin(), runs_.end(), [](const TrainRun& r) { return r.steps_done >= r.config.steps; });
}

double TrainRunSet::steps_per_second() const { return train_seconds_ > 0 ? train_steps_ / train_seconds_ : 0.0; }

double TrainRunSet::mean_fps() const { return train_seconds_ > 0 ? intervals_ / train_seconds_ : 0.0; }

}  // namespace normlab::views
