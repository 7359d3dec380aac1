#include "normlab/lesson.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"
#include "normlab/experiments.hpp"
#include "normlab/json_reader.hpp"
#include "normlab/presets.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace normlab {

using nlohmann::json;

namespace {

constexpr std::uint64_t kMaxLessonBytes = 1u << 20;
constexpr std::size_t kMaxSteps = 200;

// Checks what a scene can only check for generated tensors: that the method, its parameters
// and the selection fit the preset's shape.
void check_against_tensor(const State& s, const std::string& where) {
    if (s.source.kind != TensorSource::Kind::Preset) return;
    const Preset* p = find_preset(s.source.preset);
    if (!p) throw InputError(where + ": unknown preset '" + s.source.preset + "'");
    check_state_for_shape(s, p->x.shape, where,
                          " (preset '" + s.source.preset + "' has shape " + p->x.shape.str() + ")");
}

// One step; `scene` is the state so far in scene form, updated by the step's "state".
LessonStep read_step(const json& step, const std::string& where, bool first, json& scene) {
    JsonReader r(step, "", where, "a step");
    r.only_keys({"title", "text", "state"});
    LessonStep out;
    out.title = r.text("title", false);
    out.text = r.text("text", true);
    if (step.contains("state")) {
        const JsonReader st = r.child("state");
        st.only_keys({"tensor", "norm", "params", "selection", "view"}, "state key");
        for (const auto& [key, value] : st.value().items()) scene[key] = value;  // replaces the object as a whole
        // A new tensor or method makes an inherited selection meaningless unless restated.
        const json& v = st.value();
        if ((v.contains("tensor") || v.contains("norm")) && !v.contains("selection")) scene.erase("selection");
        if (v.contains("norm") && !v.contains("params")) scene.erase("params");
    } else if (first) {
        r.fail("the first step needs a \"state\"");
    }
    out.state = state_from_json(JsonReader(scene, "", where, "a step's state"));
    check_against_tensor(out.state, where);
    out.view = parse_view(out.state.view_json, where);
    if (!out.view.experiment.empty() && !find_experiment(out.view.experiment))
        throw InputError(where + ": view.experiment '" + out.view.experiment + "' is not a known experiment");
    return out;
}

}  // namespace

Lesson lesson_from_json(const std::string& text, const std::string& name) {
    const json j = parse_json_text(text, name);
    JsonReader root(j, "", name, "a lesson");
    root.format_version("normlab_lesson", "lesson");
    Lesson lesson;
    lesson.id = root.nonempty_string("id");
    lesson.title = root.text("title", true);
    lesson.summary = root.text("summary", false);
    const json& steps = root.list("steps", 1, kMaxSteps);
    json scene = json::object();
    for (std::size_t i = 0; i < steps.size(); ++i)
        lesson.steps.push_back(read_step(steps[i], name + ": step " + std::to_string(i + 1), i == 0, scene));
    return lesson;
}

Lesson load_lesson(const std::string& path) {
    Lesson l = lesson_from_json(read_file(path, kMaxLessonBytes), path);
    l.path = path;
    return l;
}

LessonSet load_lessons(const std::string& dir) {
    namespace fs = std::filesystem;
    LessonSet set;
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") files.push_back(e.path());
    if (ec) {
        set.errors.push_back("cannot read the lesson folder " + dir + ": " + ec.message());
        return set;
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        try {
            set.lessons.push_back(load_lesson(f.string()));
        } catch (const InputError& e) {
            set.errors.push_back(e.what());
        }
    }
    return set;
}

}  // namespace normlab
