// The bar above the heatmap while an experiment runs, the parts the desktop app and the browser share:
// the experiment's title and one-line explanation, GroupNorm's G slider over the divisors of C and
// the identities it shows (the continuum) and BatchNorm's train / eval controls (train step, ×5, reset, the mode, the
// running statistics). Every edit is Session::apply (or train_step / reset_running); each function returns the message
// of an edit the session refused (nothing changed then).
#pragma once
#include "normlab/views/compare_view.hpp"
#include "normlab/views/pair_view.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/session/session.hpp"

#include <optional>
#include <string>
#include <vector>

namespace normlab::views {

// Starts experiment `id` in `session`: its state (or `state`, a lesson step's), with a handed-out
// exercise ended; a pair experiment's right side in `pair`. Returns the experiment, or the message of
// why it cannot start (unknown id, a refused state; the session is unchanged then).
struct StartedExperiment {
    const classroom::Experiment* experiment = nullptr;
    std::string error;
};
StartedExperiment start_experiment(const std::string& id, std::optional<core::State> state, session::Session& session,
                                   PairView& pair);

// The experiment's title and explanation, its placeholders filled from (x, result) and, for a training
// experiment's run[i], from `runs`: the Train view's runs where they are the experiment's own, else none
// (its numbers show "…", with a line saying why).
void experiment_heading(const classroom::Experiment& e, const core::Tensor& x, const core::NormResult& result,
                        const std::vector<classroom::LessonRun>& runs, const classroom::LessonSweep& sweep = {});
// The continuum's G slider with its keys' hint; draws nothing unless GroupNorm is shown.
std::optional<std::string> group_slider(session::Session& session);
// The continuum's line under the slider, checked on the numbers the shaders produced for the compare
// view: at G = 1 and G = C the statistics equal LayerNorm's and InstanceNorm's (max differences), in
// between how many channels each statistic pools.
void continuum_identities(CompareView& compare, const session::Session& session);
// The train-eval experiment's controls; draws nothing unless BatchNorm is shown.
std::optional<std::string> train_eval_bar(session::Session& session);

}  // namespace normlab::views
