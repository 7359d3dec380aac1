#include "normlab/lesson.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"
#include "normlab/experiments.hpp"
#include "normlab/presets.hpp"
#include "normlab/stat_layout.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace normlab {

using nlohmann::json;

namespace {

constexpr std::uint64_t kMaxLessonBytes = 1u << 20;

LocalText local_text(const json& j, const std::string& key, const std::string& where, bool required) {
    LocalText t;
    if (!j.contains(key) || j.at(key).is_null()) {
        if (required) throw InputError(where + ": missing \"" + key + "\" (an object {\"en\": ..., \"zh\": ...})");
        return t;
    }
    const json& v = j.at(key);
    if (v.is_string()) {  // English only
        t.en = v.get<std::string>();
        return t;
    }
    if (!v.is_object()) throw InputError(where + ": \"" + key + "\" must be an object {\"en\": ..., \"zh\": ...}");
    for (const auto& [lang, text] : v.items()) {
        if (lang != "en" && lang != "zh") throw InputError(where + ": \"" + key + "\" has unknown language '" + lang + "' (en or zh)");
        if (!text.is_string()) throw InputError(where + ": \"" + key + "." + lang + "\" must be a string");
        (lang == "en" ? t.en : t.zh) = text.get<std::string>();
    }
    if (t.en.empty()) throw InputError(where + ": \"" + key + ".en\" is missing or empty");
    return t;
}

// Checks what scene_from_json can only check for generated tensors: that the method, its
// parameters and the selection fit the preset's shape.
void check_against_tensor(const State& s, const std::string& where) {
    if (s.source.kind != TensorSource::Kind::Preset) return;
    const Preset* p = find_preset(s.source.preset);
    if (!p) throw InputError(where + ": unknown preset '" + s.source.preset + "'");
    try {
        StatLayout layout = make_layout(s.spec, p->x.shape);
        s.params.validate(s.spec, layout);
        validate_selection(s.selection, p->x.shape);
    } catch (const InputError& e) {
        throw InputError(where + ": " + e.what() + " (preset '" + s.source.preset + "' has shape " + p->x.shape.str() + ")");
    }
}

}  // namespace

Lesson lesson_from_json(const std::string& text, const std::string& name) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        std::string what = e.what();
        throw InputError(name + ": not valid JSON (" + what.substr(what.find(']') + 2) + ")");
    }
    if (!j.is_object()) throw InputError(name + ": a lesson must be a JSON object");
    if (!j.contains("normlab_lesson") || j.at("normlab_lesson") != 1)
        throw InputError(name + ": not a normlab lesson (needs \"normlab_lesson\": 1)");
    Lesson lesson;
    if (!j.contains("id") || !j.at("id").is_string() || j.at("id").get<std::string>().empty())
        throw InputError(name + ": missing \"id\" (a non-empty string)");
    lesson.id = j.at("id").get<std::string>();
    lesson.title = local_text(j, "title", name, true);
    lesson.summary = local_text(j, "summary", name, false);
    if (!j.contains("steps") || !j.at("steps").is_array() || j.at("steps").empty())
        throw InputError(name + ": \"steps\" must be a non-empty list");
    if (j.at("steps").size() > 200) throw InputError(name + ": more than 200 steps");

    json scene = json::object();  // the state so far, in scene form
    int index = 0;
    for (const json& step : j.at("steps")) {
        ++index;
        const std::string where = name + ": step " + std::to_string(index);
        if (!step.is_object()) throw InputError(where + " must be an object");
        for (const auto& [key, value] : step.items())
            if (key != "title" && key != "text" && key != "state")
                throw InputError(where + ": unknown key '" + key + "' (title, text or state)");
        LessonStep out;
        out.title = local_text(step, "title", where, false);
        out.text = local_text(step, "text", where, true);
        if (step.contains("state")) {
            const json& st = step.at("state");
            if (!st.is_object()) throw InputError(where + ": \"state\" must be an object");
            for (const auto& [key, value] : st.items()) {
                if (key != "tensor" && key != "norm" && key != "params" && key != "selection" && key != "view")
                    throw InputError(where + ": unknown state key '" + key + "' (tensor, norm, params, selection or view)");
                scene[key] = value;  // replaces the previous step's object as a whole
            }
            // A new tensor or method makes an inherited selection meaningless unless restated.
            if ((st.contains("tensor") || st.contains("norm")) && !st.contains("selection")) scene.erase("selection");
            if (st.contains("norm") && !st.contains("params")) scene.erase("params");
        } else if (index == 1) {
            throw InputError(where + ": the first step needs a \"state\"");
        }
        json full = scene;
        full["normlab_scene"] = 1;
        out.state = scene_from_json(full.dump(), where);
        check_against_tensor(out.state, where);
        out.view = parse_view(out.state.view_json, where);
        if (!out.view.experiment.empty() && !find_experiment(out.view.experiment))
            throw InputError(where + ": view.experiment '" + out.view.experiment + "' is not a known experiment");
        lesson.steps.push_back(std::move(out));
    }
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
