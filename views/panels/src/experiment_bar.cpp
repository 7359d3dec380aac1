#include "normlab/views/experiment_bar.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/lesson_panel.hpp"
#include "normlab/views/wrapped_text.hpp"

#include "normlab/session/state_edits.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::views {

StartedExperiment start_experiment(const std::string& id, std::optional<core::State> state, session::Session& session,
                                   PairView& pair) {
    const classroom::Experiment* e = classroom::find_experiment(id);
    if (!e) return {nullptr, "unknown experiment '" + id + "'"};
    core::State st = state ? *state : e->state;
    st.exercise = {};  // an experiment ends a handed-out exercise
    auto err = e->kind == classroom::ExperimentKind::Pair ? pair.start(*e, session, st)
                                                          : session.replace(st, session::TensorChange::from_source());
    if (err) return {nullptr, *err};
    return {e, ""};
}

void experiment_heading(const classroom::Experiment& e, const core::Tensor& x, const core::NormResult& result,
                        const std::vector<classroom::LessonRun>& runs, const classroom::LessonSweep& sweep) {
    wrapped_text_colored(ImVec4(0.94f, 0.89f, 0.26f, 1),
                         classroom::render_lesson_text(tr(e.title), x, result, runs, sweep));
    wrapped_text(classroom::render_lesson_text(tr(e.explanation), x, result, runs, sweep));
    if (e.view.train)
        runs_note(tr(e.explanation), runs,
                  tr("The Train view no longer holds this experiment's runs: open the experiment again to train "
                     "them; their numbers show … until then."),
                  sweep);
}

std::optional<std::string> group_slider(session::Session& session) {
    const core::State& st = session.state();
    if (st.spec.method != core::Method::Group) return std::nullopt;
    auto ds = session::divisors(session.x().shape.c);
    int idx = static_cast<int>(std::find(ds.begin(), ds.end(), st.spec.groups) - ds.begin());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    std::string label = "G = " + std::to_string(st.spec.groups);
    std::optional<std::string> err;
    if (ImGui::SliderInt("##G", &idx, 0, static_cast<int>(ds.size()) - 1, label.c_str()))
        err = session.apply(session::with_groups(st, ds[static_cast<std::size_t>(idx)]), session::TensorChange::keep());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("(divisors of C; keys + and −)"));
    return err;
}

void continuum_identities(CompareView& compare, const session::Session& session) {
    const core::State& st = session.state();
    if (st.spec.method != core::Method::Group) return;
    compare.follow(session);
    auto max_diff = [](const std::vector<double>& a, const std::vector<double>& b) {
        double m = 0;
        for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
        return a.size() == b.size() ? m : -1.0;
    };
    const core::NormResult& gr = compare.shown(3).result();
    const core::Shape4& sh = session.x().shape;
    if (st.spec.groups == 1 || st.spec.groups == sh.c) {
        const int other = st.spec.groups == 1 ? 1 : 2;
        const core::NormResult& o = compare.shown(other).result();
        ImGui::Text(tr("G = %lld: statistics equal %s's: max |Δμ| = %.2g, max |Δσ²| = %.2g"),
                    static_cast<long long>(st.spec.groups), other == 1 ? "LayerNorm([C,H,W])" : "InstanceNorm2d",
                    max_diff(gr.mean, o.mean), max_diff(gr.var, o.var));
    } else {
        ImGui::Text(tr("G = %lld: each statistic pools %lld channels × H·W = %lld elements"),
                    static_cast<long long>(st.spec.groups), static_cast<long long>(sh.c / st.spec.groups),
                    static_cast<long long>(session.layout().count()));
    }
}

std::optional<std::string> train_eval_bar(session::Session& session) {
    if (session.state().spec.method != core::Method::Batch) return std::nullopt;
    std::optional<std::string> err;
    auto keep = [&err](std::optional<std::string> e) {
        if (e) err = std::move(e);
    };
    if (ImGui::Button(tr("train step (N)"))) keep(session.train_step());
    ImGui::SameLine();
    if (ImGui::Button(tr("×5")))
        for (int i = 0; i < 5 && !err; ++i) keep(session.train_step());
    ImGui::SameLine();
    if (ImGui::Button(tr("reset"))) keep(session.reset_running());
    ImGui::SameLine();
    const core::State& st = session.state();
    int mode = st.spec.mode == core::Mode::Train ? 0 : 1;
    bool changed = ImGui::RadioButton(tr("train"), &mode, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton(tr("eval (E)"), &mode, 1);
    if (changed)
        keep(session.apply(session::with_mode(st, mode == 0 ? core::Mode::Train : core::Mode::Eval),
                           session::TensorChange::keep()));
    ImGui::SameLine();
    const core::State& now = session.state();
    ImGui::Text(tr("batches tracked: %lld"), static_cast<long long>(now.params.num_batches_tracked));
    const core::NormResult& r = session.result();
    const std::size_t C = static_cast<std::size_t>(session.x().shape.c);
    std::string line;
    for (std::size_t c = 0; c < std::min<std::size_t>(C, 4); ++c) {
        char b[128];
        std::snprintf(b, sizeof b, "c%zu: %s %.3f / %.3f   ", c, tr("running μ/σ²"),
                      now.params.running_mean.empty() ? 0.0 : now.params.running_mean[c],
                      now.params.running_var.empty() ? 1.0 : now.params.running_var[c]);
        line += b;
    }
    ImGui::TextUnformatted(line.c_str());
    ImGui::TextDisabled(tr("now normalizing with: %s"),
                        r.stats_from_running ? tr("running statistics (eval)") : tr("this batch's statistics (train)"));
    return err;
}

}  // namespace normlab::views
