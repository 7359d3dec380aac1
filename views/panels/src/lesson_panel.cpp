#include "normlab/views/lesson_panel.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include "normlab/core/error.hpp"
#include "normlab/classroom/lesson_text.hpp"

#include <imgui.h>

#include <algorithm>

namespace normlab::views {

void LessonPanel::load_dir(const std::string& dir) {
    set_ = classroom::load_lessons(dir);
    lesson_ = -1;
    step_ = 0;
}

bool LessonPanel::load_file(const std::string& path) {
    try {
        classroom::Lesson l = classroom::load_lesson(path);
        for (std::size_t i = 0; i < set_.lessons.size(); ++i)
            if (set_.lessons[i].id == l.id) {
                set_.lessons[i] = std::move(l);
                return true;
            }
        set_.lessons.push_back(std::move(l));
        return true;
    } catch (const core::InputError& e) {
        error_ = e.what();
        set_.errors.push_back(e.what());
        return false;
    }
}

std::optional<classroom::ViewSettings> LessonPanel::go(int lesson, int step, session::Session& session,
                                                       const StartExperiment& start) {
    if (lesson < 0 || lesson >= count()) return std::nullopt;
    const classroom::Lesson& l = set_.lessons[static_cast<std::size_t>(lesson)];
    step = std::clamp(step, 0, static_cast<int>(l.steps.size()) - 1);
    const int from = active() && lesson_ == lesson ? step_ : -1;
    if (from == step && error_.empty()) return std::nullopt;  // ← on the first step, → on the last: nothing to do
    const classroom::LessonStep& s = l.steps[static_cast<std::size_t>(step)];
    core::State next = classroom::lesson_step_state(l, from, step, session.state(), memory_);
    next.exercise = {};  // a lesson ends a handed-out exercise
    if (!s.view.experiment.empty()) {
        if (auto err = start(s.view.experiment, next)) {
            error_ = "step " + std::to_string(step + 1) + ": " + *err;
            return std::nullopt;
        }
    } else if (auto err = session.replace(next, session::TensorChange::from_source())) {
        error_ = std::string(tr("This step could not be applied: ")) + *err;
        return std::nullopt;
    }
    went_to(lesson, step);
    return s.view;
}

std::string LessonPanel::step_text(const core::Tensor& x, const core::NormResult& result,
                                   const std::vector<classroom::LessonRun>& runs,
                                   const classroom::LessonSweep& sweep) const {
    if (!active()) return "";
    return classroom::render_lesson_text(lesson()->steps[static_cast<std::size_t>(step_)].text.in(language()), x,
                                         result, runs, sweep);
}

std::string LessonPanel::all_text() const {
    std::string t;
    for (const auto& l : set_.lessons) {
        t += l.title.zh + l.summary.zh;
        for (const auto& s : l.steps) t += s.title.zh + s.text.zh;
    }
    return t;
}

std::optional<std::pair<int, int>> LessonPanel::menu() {
    std::optional<std::pair<int, int>> go;
    if (!ImGui::BeginMenu(tr_id("Lessons", "lessons").c_str())) return go;
    for (int i = 0; i < count(); ++i) {
        const classroom::Lesson& l = set_.lessons[static_cast<std::size_t>(i)];
        if (menu_item_fitting(tr(l.title), l.id, lesson_ == i)) {  // long titles elided on a phone
            close();                                               // choosing a lesson starts it afresh
            go = {i, 0};
        }
    }
    if (active() && ImGui::MenuItem(tr("Close the lesson"))) close();
    for (const auto& e : set_.errors) ImGui::TextColored(ImVec4(1, 0.5f, 0.45f, 1), "%s", e.c_str());
    ImGui::EndMenu();
    return go;
}

void runs_note(const std::string& text, const std::vector<classroom::LessonRun>& runs, const char* gone,
               const classroom::LessonSweep& sweep) {
    if (classroom::sweep_pending(text, sweep))
        wrapped_text_disabled(strf(tr("The sweep has finished %d of its %d runs: the numbers shown as … appear when "
                                      "every run has."),
                                   static_cast<int>(sweep.results.size()), static_cast<int>(sweep.runs)));
    bool names_runs = false;
    try {
        for (const auto& p : classroom::parse_placeholders(text)) names_runs = names_runs || p.name == "run";
    } catch (const core::InputError&) {}  // checked when the file was read
    if (!names_runs) return;
    if (runs.empty()) {
        wrapped_text_disabled(gone);
        return;
    }
    if (!classroom::runs_pending(text, runs)) return;
    int done = runs.front().steps_done, steps = runs.front().steps;
    for (const auto& r : runs) done = std::min(done, r.steps_done);
    wrapped_text_disabled(strf(tr("The runs are training (step %d of %d): the numbers shown as … appear when they "
                                  "finish."),
                               done, steps));
}

std::optional<std::pair<int, int>> LessonPanel::draw(bool presenter, const core::Tensor& x,
                                                     const core::NormResult& result,
                                                     const std::vector<classroom::LessonRun>& runs,
                                                     const classroom::LessonSweep& sweep) {
    std::optional<std::pair<int, int>> go;
    const core::Language lang = language();
    if (!error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 110, 255));
        wrapped_text(error_);
        ImGui::PopStyleColor();
        ImGui::TextDisabled("%s", tr("(the previous state is kept)"));
    }
    if (!presenter || !active()) {
        std::string current = active() ? lesson()->title.in(lang) : tr("(choose a lesson)");
        ImGui::SetNextItemWidth(-1);
        if (ImGui::BeginCombo("##lesson", current.c_str())) {
            for (int i = 0; i < count(); ++i) {
                const auto& l = set_.lessons[static_cast<std::size_t>(i)];
                if (ImGui::Selectable((l.title.in(lang) + "##" + l.id).c_str(), i == lesson_)) {
                    close();  // choosing a lesson starts it afresh (not a step within it)
                    go = {i, 0};
                }
            }
            ImGui::EndCombo();
        }
    }
    if (!active()) {
        wrapped_text_disabled(
            tr("Lessons walk through the textbook's ideas step by step. Choose one above, then use "
               "→ / ← (or Page Down / Page Up) to move."));
        for (const auto& e : set_.errors) wrapped_text_colored(ImVec4(1, 0.5f, 0.45f, 1), e);
        return go;
    }
    const classroom::Lesson& l = *lesson();
    const classroom::LessonStep& s = l.steps[static_cast<std::size_t>(step_)];
    if (presenter) wrapped_text_disabled(l.title.in(lang));
    const bool can_prev = step_ > 0, can_next = step_ + 1 < static_cast<int>(l.steps.size());
    if (!can_prev) ImGui::BeginDisabled();
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) go = {lesson_, step_ - 1};
    if (!can_prev) ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Text(tr("step %d / %d"), step_ + 1, static_cast<int>(l.steps.size()));
    ImGui::SameLine();
    if (!can_next) ImGui::BeginDisabled();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) go = {lesson_, step_ + 1};
    next_at_ = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x,
                ImGui::GetItemRectSize().y};
    if (!can_next) ImGui::EndDisabled();
    if (!s.title.en.empty()) {  // beside the arrows when it fits, else wrapped on the lines below
        const std::string title = classroom::render_lesson_text(s.title.in(lang), x, result, runs, sweep);
        const float room = ImGui::GetContentRegionAvail().x - ImGui::GetItemRectMax().x +
                           ImGui::GetCursorScreenPos().x - ImGui::GetStyle().ItemSpacing.x;
        if (ImGui::CalcTextSize(title.c_str()).x <= room) ImGui::SameLine();
        wrapped_text(title);
    }
    ImGui::Separator();
    wrapped_text(classroom::render_lesson_text(s.text.in(lang), x, result, runs, sweep));
    if (s.view.train)
        runs_note(s.text.in(lang), runs,
                  tr("The Train view no longer holds this step's runs: go to the step again to train "
                     "them; their numbers show … until then."),
                  sweep);
    return go;
}

}  // namespace normlab::views
