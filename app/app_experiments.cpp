// AppUi's lessons and experiments: going to a lesson step, starting and stopping an
// experiment, and the experiment bar above the heatmap.
#include "app_ui.hpp"

#include "cube_view.hpp"
#include "exporter.hpp"
#include "i18n.hpp"
#include "sync_view.hpp"
#include "wrapped_text.hpp"

#include "normlab/error.hpp"
#include "normlab/state_edits.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

namespace normlab::app {

void AppUi::go_to_step(int lesson, int step) {
    if (lesson < 0 || lesson >= lessons_.count()) return;
    const Lesson& l = lessons_.lessons()[static_cast<std::size_t>(lesson)];
    step = std::clamp(step, 0, static_cast<int>(l.steps.size()) - 1);
    const LessonStep& s = l.steps[static_cast<std::size_t>(step)];
    // The step's tensor, method and view; γ/β, running statistics and selection as the class left them.
    const int from = lessons_.active() && lessons_.lesson_index() == lesson ? lessons_.step() : -1;
    if (from == step && lessons_.error().empty()) return;  // ← on the first step, → on the last: nothing to do
    State next = lesson_step_state(l, from, step, session_.state(), lessons_.memory());
    next.exercise = {};  // a lesson ends a handed-out exercise (replace() below)
    if (!s.view.experiment.empty()) {
        if (!start_experiment(s.view.experiment, next)) {
            lessons_.set_error("step " + std::to_string(step + 1) + ": " + msg_);
            return;
        }
    } else {
        if (auto err = session_.replace(next, TensorChange::from_source())) {
            lessons_.set_error(std::string(tr("This step could not be applied: ")) + *err);
            return;
        }
        experiment_ = nullptr;
    }
    apply_view(s.view);
    lessons_.went_to(lesson, step);
}

bool AppUi::start_experiment(const std::string& id, std::optional<State> state) {
    const Experiment* e = find_experiment(id);
    if (!e) {
        message("unknown experiment '" + id + "'", true);
        return false;
    }
    State st = state ? *state : e->state;
    st.exercise = {};  // an experiment ends a handed-out exercise
    std::optional<std::string> err;
    if (e->kind == ExperimentKind::Pair) {
        err = pair_.start(*e, session_, st);
    } else {
        err = session_.replace(st, TensorChange::from_source());
    }
    if (err) {
        message(*err, true);
        return false;
    }
    experiment_ = e;
    apply_view(e->view);
    return true;
}

void AppUi::stop_experiment() { experiment_ = nullptr; }

void AppUi::experiment_bar() {
    const Experiment& e = *experiment_;
    wrapped_text_colored(ImVec4(0.94f, 0.89f, 0.26f, 1), tr(e.title));
    wrapped_text(tr(e.explanation));
    const State& st = session_.state();
    if (BatchNoisePanel::applies(e, session_)) noise_.draw(session_, e);
    if (e.kind == ExperimentKind::Continuum && st.spec.method == Method::Group) {
        auto ds = divisors(session_.x().shape.c);
        int idx = static_cast<int>(std::find(ds.begin(), ds.end(), st.spec.groups) - ds.begin());
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        std::string label = "G = " + std::to_string(st.spec.groups);
        if (ImGui::SliderInt("##G", &idx, 0, static_cast<int>(ds.size()) - 1, label.c_str()))
            edit(with_groups(st, ds[static_cast<std::size_t>(idx)]));
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr("(divisors of C; keys + and −)"));
        // The identities, checked on the numbers the shaders produced.
        compare_.follow(session_);
        auto max_diff = [](const std::vector<double>& a, const std::vector<double>& b) {
            double m = 0;
            for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
            return a.size() == b.size() ? m : -1.0;
        };
        const NormResult& gr = compare_.shown(3).result();
        const Shape4& sh = session_.x().shape;
        if (st.spec.groups == 1 || st.spec.groups == sh.c) {
            const int other = st.spec.groups == 1 ? 1 : 2;
            const NormResult& o = compare_.shown(other).result();
            ImGui::Text(tr("G = %lld: statistics equal %s's: max |Δμ| = %.2g, max |Δσ²| = %.2g"),
                        static_cast<long long>(st.spec.groups), other == 1 ? "LayerNorm([C,H,W])" : "InstanceNorm2d",
                        max_diff(gr.mean, o.mean), max_diff(gr.var, o.var));
        } else {
            ImGui::Text(tr("G = %lld: each statistic pools %lld channels × H·W = %lld elements"),
                        static_cast<long long>(st.spec.groups), static_cast<long long>(sh.c / st.spec.groups),
                        static_cast<long long>(session_.layout().count()));
        }
    }
    if (e.kind == ExperimentKind::TrainEval && st.spec.method == Method::Batch) {
        if (ImGui::Button(tr("train step (N)"))) {
            if (auto err = session_.train_step()) message(*err, true);
        }
        ImGui::SameLine();
        if (ImGui::Button(tr("×5"))) {
            for (int i = 0; i < 5; ++i)
                if (auto err = session_.train_step()) message(*err, true);
        }
        ImGui::SameLine();
        if (ImGui::Button(tr("reset"))) {
            if (auto err = session_.reset_running()) message(*err, true);
        }
        ImGui::SameLine();
        int mode = st.spec.mode == Mode::Train ? 0 : 1;
        bool changed = ImGui::RadioButton(tr("train"), &mode, 0);
        ImGui::SameLine();
        changed |= ImGui::RadioButton(tr("eval (E)"), &mode, 1);
        if (changed) edit(with_mode(st, mode == 0 ? Mode::Train : Mode::Eval));
        ImGui::SameLine();
        ImGui::Text(tr("batches tracked: %lld"), static_cast<long long>(st.params.num_batches_tracked));
        const NormResult& r = session_.result();
        const std::size_t C = static_cast<std::size_t>(session_.x().shape.c);
        std::string line;
        for (std::size_t c = 0; c < std::min<std::size_t>(C, 4); ++c) {
            char b[128];
            std::snprintf(b, sizeof b, "c%zu: %s %.3f / %.3f   ", c, tr("running μ/σ²"),
                          st.params.running_mean.empty() ? 0.0 : st.params.running_mean[c],
                          st.params.running_var.empty() ? 1.0 : st.params.running_var[c]);
            line += b;
        }
        ImGui::TextUnformatted(line.c_str());
        ImGui::TextDisabled(tr("now normalizing with: %s"), r.stats_from_running
                                                                ? tr("running statistics (eval)")
                                                                : tr("this batch's statistics (train)"));
    }
}

}  // namespace normlab::app
