// Lessons: guided tours through normlab, one JSON file per lesson in assets/lessons/.
// Each step has a title and a text in English and Chinese and the state it sets (tensor,
// method and its parameters, selection, view). A step's "state" object is written like a
// scene (docs/scene-format.md) without "normlab_scene"; keys it leaves out (tensor, norm,
// params, selection, view) are inherited from the previous step. Every step is checked when
// the file is read, so a malformed lesson is refused as a whole with a message naming the
// file, the step and the key.
#pragma once
#include "normlab/core/local_text.hpp"
#include "normlab/core/state.hpp"
#include "normlab/classroom/view_settings.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace normlab::classroom {

struct LessonStep {
    core::LocalText title;
    core::LocalText text;
    core::State state;             // complete; state.view_json holds the view object
    ViewSettings view;             // parsed from state.view_json
    bool names_params = false;     // the step's "state" has "params"
    bool names_selection = false;  // the step's "state" has "selection"
    // The step whose declaration of γ/β and running statistics (resp. the selection) is in force
    // here: the last one that named it, or changed the tensor (params also: the method).
    int params_origin = 0, selection_origin = 0;
    std::vector<std::string> literals;  // "literals": numbers the text states that are not results
};

struct Lesson {
    std::string id;
    std::string path;  // the file it came from ("" when parsed from text)
    core::LocalText title;
    core::LocalText summary;
    std::vector<std::string> literals;  // numbers the title and summary state that are not results
    std::vector<LessonStep> steps;
};

// Parses lesson JSON; throws InputError("<name>: <what is wrong>").
Lesson lesson_from_json(const std::string& text, const std::string& name);
Lesson load_lesson(const std::string& path);

struct LessonSet {
    std::vector<Lesson> lessons;      // sorted by file name
    std::vector<std::string> errors;  // one message per file that could not be used
};
// Every *.json in `dir`; a malformed file is reported in errors and skipped.
LessonSet load_lessons(const std::string& dir);

// What a class did to the parts a lesson leaves to it, remembered per declaration (origin step)
// when it leaves a step, so that stepping back returns to the same picture.
struct LessonMemory {
    std::map<int, core::State> params;     // by params_origin: the state the class left (its params)
    std::map<int, core::State> selection;  // by selection_origin: the state the class left (its selection)
    void clear() { params.clear(), selection.clear(); }
};

// The state of step `to` when the class arrives from step `from` (-1: entering the lesson) with
// `current`. Tensor, method and view are the step's. γ/β with the running statistics, and the
// selection, are the step's when it names them; otherwise the class's are kept: the current ones
// when the same declaration is in force at `from` and `to`, else those the class had the last time
// that declaration was in force, else the lesson's. Kept parts must fit (same tensor, same method,
// shapes); ones that do not are the lesson's. Updates `memory` with what the class leaves at `from`.
core::State lesson_step_state(const Lesson& lesson, int from, int to, const core::State& current, LessonMemory& memory);

}  // namespace normlab::classroom
