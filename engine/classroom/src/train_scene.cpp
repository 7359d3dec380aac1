// A scene's Train view: its "train" object read and written (train_scene.hpp).
#include "train_scene_json.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/json_reader.hpp"
#include "normlab/train/train_options.hpp"

#include <nlohmann/json.hpp>

namespace normlab::classroom {

using nlohmann::json;

namespace {

// A field's JSON value as the option text the CLI would take ("0.1", "300", "batch").
std::string option_text(const io::JsonReader& r, const std::string& key) {
    const json& v = r.get(key);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer() || v.is_number_unsigned() || v.is_number_float()) return v.dump();
    r.fail(r.key(key) + " must be a string or a number");
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

}  // namespace

TrainScene train_scene_from_json(const json& j, const std::string& where, const std::string& name) {
    const io::JsonReader r(j, where, name, "the train object");
    r.only_keys({"base", "runs", "play"}, where + " key");
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
    return json{{"base", base}, {"runs", runs}, {"play", t.play}};
}

}  // namespace normlab::classroom
