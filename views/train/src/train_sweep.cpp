// TrainSweep (train_sweep.hpp): the grid's runs one after another, each a TrainRunSet of one run.
#include "normlab/views/train_sweep.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>

namespace normlab::views {

std::optional<std::string> TrainSweep::start(TrainDeviceFactory factory, const train::TrainConfig& base,
                                             const std::vector<train::SweepAxis>& axes) {
    if (!factory) return std::string("training is not available on this backend");
    std::vector<train::SweepRun> runs;
    try {
        runs = train::sweep_grid(base, axes);
    } catch (const std::exception& e) {
        return core::error_line(e);
    }
    if (runs.empty()) return std::string("the sweep has no runs");
    factory_ = std::move(factory);
    base_ = base;
    axes_ = axes;
    runs_ = std::move(runs);
    results_.clear();
    error_.clear();
    state_ = State::Running;
    ++started_;
    if (auto err = start_run()) {
        cancel();
        state_ = State::Failed;
        error_ = *err;
        return err;
    }
    return std::nullopt;
}

std::optional<std::string> TrainSweep::start_run() {
    current_.set_factory(factory_);  // the last run's device freed
    const train::SweepRun& run = runs_[results_.size()];
    if (auto err = current_.start(run.config)) return "sweep run " + train::sweep_run_label(axes_, run) + ": " + *err;
    current_.play(true);
    run_started_ = Clock::now();
    return std::nullopt;
}

bool TrainSweep::holds(const train::TrainConfig& base, const std::vector<train::SweepAxis>& axes) const {
    return (state_ == State::Running || state_ == State::Done) && base_ == base && axes_ == axes;
}

void TrainSweep::cancel() {
    if (state_ != State::Running) return;
    current_.set_factory({});  // the device waits for its queue as it goes
    state_ = State::Cancelled;
}

bool TrainSweep::tick(Clock::time_point now) {
    if (state_ != State::Running) return false;
    current_.tick(now);
    if (!current_.done()) return true;
    const TrainRun& r = current_.runs().front();
    const TrainCurves& c = r.curves;
    const double seconds = std::chrono::duration<double>(now - run_started_).count();
    results_.push_back({c.loss.back(), c.acc.back(), c.val_loss.back(), c.val_acc.back(),
                        seconds > 0 ? r.config.steps / seconds : 0.0});
    if (results_.size() == runs_.size()) {
        current_.set_factory({});
        state_ = State::Done;
        return false;
    }
    if (auto err = start_run()) {
        current_.set_factory({});
        state_ = State::Failed;
        error_ = *err;
        return false;
    }
    return true;
}

int TrainSweep::current_steps() const { return current_.runs().empty() ? 0 : current_.runs().front().steps_done; }

int TrainSweep::current_total_steps() const {
    return current_.runs().empty() ? 0 : current_.runs().front().config.steps;
}

std::string TrainSweep::current_label() const {
    if (state_ != State::Running || results_.size() >= runs_.size()) return "";
    return train::sweep_run_label(axes_, runs_[results_.size()]);
}

std::string TrainSweep::csv() const {
    if (state_ != State::Done)
        throw core::InputError("the sweep has not finished (" + std::to_string(finished()) + " of " +
                               std::to_string(total()) + " runs): nothing to export");
    return train::sweep_summary_csv(axes_, runs_, results_);
}

classroom::LessonSweep TrainSweep::lesson_sweep(const std::optional<classroom::TrainScene>& own) const {
    if (!own || !own->sweep || own->runs.empty()) return {};
    const auto run = static_cast<std::size_t>(std::clamp(own->sweep->run, 1, static_cast<int>(own->runs.size())) - 1);
    if (!holds(train::sweep_base(own->runs[run]), own->sweep->axes)) return {classroom::sweep_run_count(own), {}};
    return {runs_.size(), results_};
}

void SweepFields::set(const std::vector<train::SweepAxis>& axes) {
    auto list = [](const train::SweepAxis& axis, std::array<char, train::kSweepListChars + 1>& field) {
        std::string s;
        for (const auto& v : axis.values) s += (s.empty() ? "" : ",") + v;
        field.fill('\0');
        s.copy(field.data(), field.size() - 1);
    };
    norms.fill(false);
    batches.fill('\0');
    lrs.fill('\0');
    for (const auto& axis : axes) {
        if (axis.key == "batch") list(axis, batches);
        if (axis.key == "lr") list(axis, lrs);
        if (axis.key != "norm") continue;
        for (std::size_t i = 0; i < train::kViewNorms.size(); ++i)
            norms[i] = std::find(axis.values.begin(), axis.values.end(),
                                 train::train_norm_name(train::kViewNorms[i])) != axis.values.end();
    }
}

std::vector<train::SweepAxis> SweepFields::axes(bool cnn) const {
    std::vector<std::string> checked;
    for (std::size_t i = 0; i < train::kViewNorms.size(); ++i)
        if (norms[i] && (cnn || train::kViewNorms[i] != train::TrainNorm::Instance))
            checked.push_back(train::train_norm_name(train::kViewNorms[i]));
    return train::sweep_axes(checked, batches.data(), lrs.data());
}

}  // namespace normlab::views
