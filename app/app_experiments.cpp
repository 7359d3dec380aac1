// AppUi's lessons and experiments: going to a lesson step, starting and stopping an
// experiment, and the experiment bar above the heatmap.
#include "app_ui.hpp"

#include "experiment_bar.hpp"
#include "i18n.hpp"

namespace normlab::app {

void AppUi::go_to_step(int lesson, int step) {
    auto start = [this](const std::string& id, const State& st) -> std::optional<std::string> {
        if (start_experiment(id, st)) return std::nullopt;
        return msg_;
    };
    if (auto view = lessons_.go(lesson, step, session_, start)) {
        if (view->experiment.empty()) experiment_ = nullptr;
        apply_view(*view);
    }
}

bool AppUi::start_experiment(const std::string& id, std::optional<State> state) {
    const StartedExperiment started = app::start_experiment(id, std::move(state), session_, pair_);
    if (!started.experiment) {
        message(started.error, true);
        return false;
    }
    experiment_ = started.experiment;
    apply_view(experiment_->view);
    return true;
}

void AppUi::stop_experiment() { experiment_ = nullptr; }

void AppUi::experiment_bar() {
    const Experiment& e = *experiment_;
    experiment_heading(e);
    const State& st = session_.state();
    if (BatchNoisePanel::applies(e, session_)) noise_.draw(session_, e);
    auto report = [this](std::optional<std::string> err) {
        if (err) message(*err, true);
    };
    if (e.kind == ExperimentKind::Continuum && st.spec.method == Method::Group) {
        report(group_slider(session_));
        continuum_identities(compare_, session_);
    }
    if (e.kind == ExperimentKind::TrainEval) report(train_eval_bar(session_));
}

}  // namespace normlab::app
