// LessonPanel: the guided lessons of assets/lessons/ (normlab/classroom/lesson.hpp): which lesson,
// which step, the step's text in the current language, previous/next. Files that cannot
// be read are listed with their error; the app keeps running and keeps its state. A step's
// placeholders ({mean[1]:.2f}, normlab/classroom/lesson_text.hpp) show the current result's numbers,
// and those of the step's training runs ({run[1].val_acc:.1%}) once the runs have finished.
#pragma once
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/session/session.hpp"

#include <functional>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace normlab::views {

// Under a text that names training runs (run[i], a lesson step's or an experiment's): that they are
// training and how far, or, where `runs` is empty, `gone` (the Train view no longer holds them); under one
// that names a sweep's runs (sweep[i]) before the sweep finished: how many of its runs have.
void runs_note(const std::string& text, const std::vector<classroom::LessonRun>& runs, const char* gone,
               const classroom::LessonSweep& sweep = {});

class LessonPanel {
public:
    // Loads every lesson of `dir` (replacing those loaded before).
    void load_dir(const std::string& dir);
    // Loads one more lesson file and makes it current; false (and error()) when malformed.
    bool load_file(const std::string& path);

    // Goes to step `step` (clamped) of lesson `lesson`: its State, made from the session's by
    // lesson_step_state (γ/β, running statistics and selection as the class left them; a handed-out
    // exercise ended), goes into the session by Session::replace, or by `start(id, state)` where the
    // step names an experiment (it returns the message of a refusal). Returns the step's view for the
    // caller to show; nothing when there is no such step, it is shown already, or it was refused
    // (error() says why; the session is unchanged).
    using StartExperiment = std::function<std::optional<std::string>(const std::string& id, const core::State& state)>;
    std::optional<classroom::ViewSettings> go(int lesson, int step, session::Session& session,
                                              const StartExperiment& start);

    // The menu bar's Lessons menu: each lesson, "Close the lesson", the files that could not be
    // read; returns (lesson, 0) when one was chosen (it starts afresh).
    std::optional<std::pair<int, int>> menu();
    // Draws the panel; returns (lesson, step) when the user asked to go somewhere. `runs`: the Train
    // view's runs where they are the step's own (view.train), else none (its run numbers show "…").
    std::optional<std::pair<int, int>> draw(bool presenter, const core::Tensor& x, const core::NormResult& result,
                                            const std::vector<classroom::LessonRun>& runs = {},
                                            const classroom::LessonSweep& sweep = {});

    // The current step's text as the panel shows it (placeholders filled; "" without a lesson).
    std::string step_text(const core::Tensor& x, const core::NormResult& result,
                          const std::vector<classroom::LessonRun>& runs,
                          const classroom::LessonSweep& sweep = {}) const;

    bool active() const { return lesson_ >= 0 && lesson_ < static_cast<int>(set_.lessons.size()); }
    const classroom::Lesson* lesson() const {
        return active() ? &set_.lessons[static_cast<std::size_t>(lesson_)] : nullptr;
    }
    int lesson_index() const { return lesson_; }
    int step() const { return step_; }
    int count() const { return static_cast<int>(set_.lessons.size()); }
    const std::vector<classroom::Lesson>& lessons() const { return set_.lessons; }
    // Called once a step's state was applied (or not: the message says why).
    void went_to(int lesson, int step) { lesson_ = lesson, step_ = step, error_.clear(); }
    void close() { lesson_ = -1, memory_.clear(); }
    // What the class did to the parts the lesson leaves to it (lesson_step_state()).
    classroom::LessonMemory& memory() { return memory_; }
    const std::string& error() const { return error_; }
    const std::vector<std::string>& load_errors() const { return set_.errors; }
    // All lesson text (for the font atlas's glyphs).
    std::string all_text() const;

    // Where the ▶ (next step) button was drawn last: x, y, w, h (the browser's report: its tests tap it).
    std::array<float, 4> next_button() const { return next_at_; }

private:
    std::array<float, 4> next_at_{-1, -1, 0, 0};
    classroom::LessonSet set_;
    int lesson_ = -1, step_ = 0;
    std::string error_;
    classroom::LessonMemory memory_;
};

}  // namespace normlab::views
