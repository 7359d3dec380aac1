// Lessons: guided tours through normlab, one JSON file per lesson in assets/lessons/.
// Each step has a title and a text in English and Chinese and the state it sets (tensor,
// method and its parameters, selection, view). A step's "state" object is written like a
// scene (docs/scene-format.md) without "normlab_scene"; keys it leaves out (tensor, norm,
// params, selection, view) are inherited from the previous step. Every step is checked when
// the file is read, so a malformed lesson is refused as a whole with a message naming the
// file, the step and the key.
#pragma once
#include "normlab/local_text.hpp"
#include "normlab/state.hpp"
#include "normlab/view_settings.hpp"

#include <string>
#include <vector>

namespace normlab {

struct LessonStep {
    LocalText title;
    LocalText text;
    State state;        // complete; state.view_json holds the view object
    ViewSettings view;  // parsed from state.view_json
};

struct Lesson {
    std::string id;
    std::string path;  // the file it came from ("" when parsed from text)
    LocalText title;
    LocalText summary;
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

}  // namespace normlab
