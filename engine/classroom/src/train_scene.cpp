// A scene's Train view: its "train" object read and written (train_scene.hpp).
#include "train_scene_json.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/json_reader.hpp"
#include "normlab/train/train_options.hpp"

#include <nlohmann/json.hpp>

namespace normlab::classroom {

using nlohmann::json;

namespace {

// A JSON value (at key path `at` of r's file) as the option text the CLI would take ("0.1", "300", "batch").
std::string value_text(const io::JsonReader& r, const json& v, const std::string& at) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer() || v.is_number_unsigned() || v.is_number_float()) return v.dump();
    r.fail(at + " must be a string or a number");
}

std::string option_text(const io::JsonReader& r, const std::string& key) {
    return value_text(r, r.get(key), r.key(key));
}

// The fields of object `r` applied to c, each refusal naming its key.
void apply_fields(const io::JsonReader& r, train::TrainConfig& c) {
    // "model" first: width and channels depend on it.
    const auto apply = [&](const std::string& key) {
        try {
            train::apply_train_option(c, key, option_text(r, key));
        } catch (const core::InputError& e) {
            const std::string what = e.what();
            r.fail(what.starts_with(key + ":") ? r.key(key) + what.substr(key.size()) : r.key(key) + ": " + what);
        }
    };
    if (r.has("model")) apply("model");
    for (const auto& [key, value] : r.value().items())
        if (key != "model" && !value.is_null()) apply(key);
}

// The values of the sweep's key `key` (norm, batch or lr) as the Sweep tab's fields take them.
std::vector<std::string> sweep_list(const io::JsonReader& r, const std::string& key) {
    if (!r.has(key)) return {};
    const json& list = r.list(key, 1, train::kMaxSweepRuns);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = r.key(key) + "[" + std::to_string(i + 1) + "]";
        out.push_back(value_text(r, list[i], at));
        if (out.back().find_first_of(", ") != std::string::npos)
            r.fail(at + " = '" + out.back() + "' holds a ',' or a space; one value per element");
    }
    return out;
}

std::string joined(const std::vector<std::string>& values) {
    std::string s;
    for (const auto& v : values) s += (s.empty() ? "" : ",") + v;
    return s;
}

// The "sweep" object `r` over `runs`: each key's list checked alone (its refusal names the key), then the
// whole grid over the base run as the Sweep tab's Start would run it (train::sweep_axes, sweep_grid).
SceneSweep sweep_from_json(const io::JsonReader& r, const std::vector<train::TrainConfig>& runs,
                           const std::string& at) {
    r.only_keys({"norm", "batch", "lr", "run", "start"}, at + " key");
    SceneSweep s;
    if (r.has("run")) s.run = static_cast<int>(r.integer("run", 1, static_cast<std::int64_t>(runs.size())));
    if (r.has("start")) s.start = r.boolean("start");
    const std::vector<std::string> norm = sweep_list(r, "norm");
    const std::string batch = joined(sweep_list(r, "batch")), lr = joined(sweep_list(r, "lr"));
    const train::TrainConfig base = train::sweep_base(runs[static_cast<std::size_t>(s.run - 1)]);
    const auto grid = [&](const std::string& where, const std::vector<std::string>& n, const std::string& b,
                          const std::string& l) {
        try {
            s.axes = train::sweep_axes(n, b, l);
            train::sweep_grid(base, s.axes);
        } catch (const core::InputError& e) {
            r.fail(where + ": " + e.what());
        }
    };
    if (!norm.empty()) grid(r.key("norm"), norm, "", "");
    if (!batch.empty()) grid(r.key("batch"), {}, batch, "");
    if (!lr.empty()) grid(r.key("lr"), {}, "", lr);
    grid(at, norm, batch, lr);
    return s;
}

// A swept value as JSON: a number where the text is one as JSON writes it (2, 0.05), else the text.
json sweep_value(const std::string& key, const std::string& v) {
    const json n = json::parse(v, nullptr, false);
    return key != "norm" && n.is_number() && n.dump() == v ? n : json(v);
}

}  // namespace

TrainScene train_scene_from_json(const json& j, const std::string& where, const std::string& name) {
    const io::JsonReader r(j, where, name, "the train object");
    r.only_keys({"base", "runs", "play", "sweep"}, where + " key");
    train::TrainConfig base;
    if (r.has("base")) apply_fields(r.child("base"), base);
    TrainScene t;
    if (r.has("play")) t.play = r.boolean("play");
    const json& runs = r.list("runs", 1, kMaxSceneTrainRuns);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string at = r.key("runs") + "[" + std::to_string(i + 1) + "]";
        train::TrainConfig c = base;
        apply_fields(io::JsonReader(runs[i], at, name, "a run"), c);
        try {
            train::validate_train_config(c);
        } catch (const core::InputError& e) {
            throw core::InputError(name + ": " + at + ": " + e.what());
        }
        if (!t.runs.empty() && !train::same_data_fields(c, t.runs.front()))
            throw core::InputError(name + ": " + at +
                                   ": the runs shown together share the model, data, classes, samples, "
                                   "noise, data-seed, batch, steps and seed; put those in \"base\"");
        t.runs.push_back(c);
    }
    if (r.has("sweep")) t.sweep = sweep_from_json(r.child("sweep"), t.runs, r.key("sweep"));
    return t;
}

json train_scene_to_json(const TrainScene& t) {
    json base = json::object(), runs = json::array();
    const auto fields =
        t.runs.empty() ? decltype(train::train_options(train::TrainConfig{})){} : train::train_options(t.runs.front());
    for (const auto& [k, v] : fields) base[k] = v;
    for (const auto& c : t.runs) {
        json run = json::object();
        for (const auto& [k, v] : train::train_options(c))
            if (!base.contains(k) || base[k] != v) run[k] = v;
        runs.push_back(run);
    }
    json j{{"base", base}, {"runs", runs}, {"play", t.play}};
    if (!t.sweep) return j;
    json& sweep = j["sweep"] = json::object();
    for (const auto& axis : t.sweep->axes) {
        json& list = sweep[axis.key] = json::array();
        for (const auto& v : axis.values) list.push_back(sweep_value(axis.key, v));
    }
    sweep["run"] = t.sweep->run;
    sweep["start"] = t.sweep->start;
    return j;
}

}  // namespace normlab::classroom
