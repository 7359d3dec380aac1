#include "normlab/classroom/lesson.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/io/json_reader.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/core/stat_layout.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace normlab::classroom {

using nlohmann::json;

namespace {

constexpr std::uint64_t kMaxLessonBytes = 1u << 20;
constexpr std::size_t kMaxSteps = 200;

// Checks what a scene can only check for generated tensors: that the method, its parameters
// and the selection fit the preset's shape.
void check_against_tensor(const core::State& s, const std::string& where) {
    if (s.source.kind != core::TensorSource::Kind::Preset) return;
    const io::Preset* p = io::find_preset(s.source.preset);
    if (!p) throw core::InputError(where + ": unknown preset '" + s.source.preset + "'");
    io::check_state_for_shape(s, p->x.shape, where,
                              " (preset '" + s.source.preset + "' has shape " + p->x.shape.str() + ")");
}

// "literals": the numbers a text states that are not the engine's results (lesson_text.hpp).
std::vector<std::string> read_literals(const io::JsonReader& r, const std::string& where) {
    std::vector<std::string> out;
    if (!r.value().contains("literals")) return out;
    for (const auto& v : r.list("literals", 1, 100)) {
        if (!v.is_string() || v.get<std::string>().empty())
            throw core::InputError(where + ": \"literals\" must list non-empty strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

// One step; `scene` is the state so far in scene form, updated by the step's "state".
LessonStep read_step(const json& step, const std::string& where, bool first, json& scene) {
    io::JsonReader r(step, "", where, "a step");
    r.only_keys({"title", "text", "state", "literals"});
    LessonStep out;
    out.title = r.text("title", false);
    out.text = r.text("text", true);
    for (const std::string* t : {&out.title.en, &out.title.zh, &out.text.en, &out.text.zh}) {
        try {
            check_lesson_text(*t);
        } catch (const core::InputError& e) {
            throw core::InputError(where + ": " + e.what());
        }
    }
    out.literals = read_literals(r, where);
    if (step.contains("state")) {
        const io::JsonReader st = r.child("state");
        st.only_keys({"tensor", "norm", "params", "selection", "view"}, "state key");
        const json& v = st.value();
        // The method as written, or "" (a malformed "norm" is reported by state_from_json below).
        const auto method_of = [](const json& sc) -> std::string {
            if (!sc.contains("norm") || !sc["norm"].is_object()) return "";
            const json& m = sc["norm"].value("method", json());
            return m.is_string() ? m.get<std::string>() : "";
        };
        const std::string old_method = method_of(scene);
        for (const auto& [key, value] : v.items()) scene[key] = value;  // replaces the object as a whole
        // A new tensor makes an inherited selection meaningless unless restated; a new tensor or
        // method does the same to γ/β and the running statistics.
        const bool method_changed = v.contains("norm") && method_of(scene) != old_method;
        if (v.contains("tensor") && !v.contains("selection")) scene.erase("selection");
        if ((v.contains("tensor") || method_changed) && !v.contains("params")) scene.erase("params");
        out.names_params = v.contains("params") || v.contains("tensor") || method_changed;
        out.names_selection = v.contains("selection") || v.contains("tensor");
    } else if (first) {
        r.fail("the first step needs a \"state\"");
    }
    out.state = io::state_from_json(io::JsonReader(scene, "", where, "a step's state"));
    check_against_tensor(out.state, where);
    out.view = parse_view(out.state.view_json, where);
    if (!out.view.experiment.empty() && !find_experiment(out.view.experiment))
        throw core::InputError(where + ": view.experiment '" + out.view.experiment + "' is not a known experiment");
    const std::size_t runs = out.view.train ? out.view.train->runs.size() : 0;
    for (const std::string* t : {&out.title.en, &out.title.zh, &out.text.en, &out.text.zh})
        check_run_placeholders(*t, runs, sweep_run_count(out.view.train), where);
    return out;
}

// The shape of a lesson step's tensor (presets only; others are not checked here).
std::optional<core::Shape4> source_shape(const core::TensorSource& s) {
    if (s.kind != core::TensorSource::Kind::Preset) return std::nullopt;
    const io::Preset* p = io::find_preset(s.preset);
    return p ? std::optional<core::Shape4>(p->x.shape) : std::nullopt;
}

bool params_fit(const core::NormParams& p, const core::State& to) {
    const auto shape = source_shape(to.source);
    if (!shape) return false;
    try {
        p.validate(to.spec, core::make_layout(to.spec, *shape));
        return true;
    } catch (const core::InputError&) {
        return false;
    }
}

bool selection_fits(const std::optional<core::Index4>& sel, const core::State& to) {
    const auto shape = source_shape(to.source);
    if (!shape) return false;
    try {
        core::validate_selection(sel, *shape);
        return true;
    } catch (const core::InputError&) {
        return false;
    }
}

}  // namespace

Lesson lesson_from_json(const std::string& text, const std::string& name) {
    const json j = io::parse_json_text(text, name);
    io::JsonReader root(j, "", name, "a lesson");
    root.format_version("normlab_lesson", "lesson");
    Lesson lesson;
    lesson.id = root.nonempty_string("id");
    lesson.title = root.text("title", true);
    lesson.summary = root.text("summary", false);
    lesson.literals = read_literals(root, name);
    for (const std::string* t : {&lesson.title.en, &lesson.title.zh, &lesson.summary.en, &lesson.summary.zh})
        if (!parse_placeholders(*t).empty())
            throw core::InputError(name + ": the title and summary take no placeholders");
    const json& steps = root.list("steps", 1, kMaxSteps);
    json scene = json::object();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        LessonStep s = read_step(steps[i], name + ": step " + std::to_string(i + 1), i == 0, scene);
        const int k = static_cast<int>(i);
        s.params_origin = s.names_params || i == 0 ? k : lesson.steps.back().params_origin;
        s.selection_origin = s.names_selection || i == 0 ? k : lesson.steps.back().selection_origin;
        lesson.steps.push_back(std::move(s));
    }
    return lesson;
}

core::State lesson_step_state(const Lesson& lesson, int from, int to, const core::State& current,
                              LessonMemory& memory) {
    const int count = static_cast<int>(lesson.steps.size());
    if (to < 0 || to >= count)
        throw core::InputError("lesson '" + lesson.id + "' has no step " + std::to_string(to + 1));
    const LessonStep& step = lesson.steps[static_cast<std::size_t>(to)];
    core::State out = step.state;
    if (from < 0 || from >= count) {
        memory.clear();
        return out;
    }
    const LessonStep& left = lesson.steps[static_cast<std::size_t>(from)];
    memory.params[left.params_origin] = current;
    memory.selection[left.selection_origin] = current;
    // The class's parts only apply to the tensor (and, for γ/β and running statistics, the
    // method) they were made for.
    if (!step.names_params) {
        const auto it = memory.params.find(step.params_origin);
        if (it != memory.params.end() && core::same_source(it->second.source, out.source) &&
            it->second.spec.method == out.spec.method && params_fit(it->second.params, out))
            out.params = it->second.params;
    }
    if (!step.names_selection) {
        const auto it = memory.selection.find(step.selection_origin);
        if (it != memory.selection.end() && core::same_source(it->second.source, out.source) &&
            selection_fits(it->second.selection, out))
            out.selection = it->second.selection;
    }
    return out;
}

Lesson load_lesson(const std::string& path) {
    Lesson l = lesson_from_json(io::read_file(path, kMaxLessonBytes), path);
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
        } catch (const core::InputError& e) {
            set.errors.push_back(e.what());
        }
    }
    return set;
}

}  // namespace normlab::classroom
