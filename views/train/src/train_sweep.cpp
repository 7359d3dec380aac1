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

std::vector<train::SweepAxis> sweep_axes(const std::vector<std::string>& norms, const std::string& batches,
                                         const std::string& lrs) {
    std::vector<train::SweepAxis> axes;
    if (!norms.empty()) {
        std::string list;
        for (const auto& n : norms) list += (list.empty() ? "" : ",") + n;
        axes.push_back(train::parse_sweep_axis("norm=" + list));
    }
    auto trimmed = [](std::string s) {
        s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
        return s;
    };
    if (!trimmed(batches).empty()) axes.push_back(train::parse_sweep_axis("batch=" + trimmed(batches)));
    if (!trimmed(lrs).empty()) axes.push_back(train::parse_sweep_axis("lr=" + trimmed(lrs)));
    if (axes.empty()) throw core::InputError("a sweep needs a norm checked, batch sizes or learning rates");
    return axes;
}

}  // namespace normlab::views
