#include "normlab/classroom/view_settings.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/json_reader.hpp"
#include "train_scene_json.hpp"

#include <nlohmann/json.hpp>

namespace normlab::classroom {

using nlohmann::json;

namespace {

std::string one_of(const io::JsonReader& r, const std::string& key, std::initializer_list<const char*> allowed) {
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    if (!r.get(key).is_string()) r.fail(r.key(key) + " must be one of " + list);
    const std::string s = r.string(key);
    for (const char* a : allowed)
        if (s == a) return s;
    r.fail(r.key(key) + " = '" + s + "' is not one of " + list);
}

}  // namespace

ViewSettings parse_view(const std::string& text, const std::string& where) {
    ViewSettings v;
    if (text.empty()) return v;
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception&) {
        throw core::InputError(where + ": view is not valid JSON");
    }
    const io::JsonReader r(j, "view", where);
    r.only_keys({"heatmap", "colormap", "groups", "compare", "cube", "gradient", "experiment", "train"}, "view key");
    auto given = [&](const char* k) { return j.contains(k); };  // null is refused, not a default
    if (given("heatmap")) v.heatmap = one_of(r, "heatmap", {"input", "output", "diff", "stats"});
    if (given("colormap")) v.colormap = one_of(r, "colormap", {"diverging", "viridis", "cividis"});
    if (given("groups")) v.palette = one_of(r, "groups", {"okabe-ito", "hues"});
    if (given("compare")) v.compare = r.boolean("compare");
    if (given("cube")) v.cube = r.boolean("cube");
    if (given("gradient")) v.gradient = r.boolean("gradient");
    if (given("experiment")) v.experiment = r.string("experiment");
    if (given("train")) v.train = train_scene_from_json(j["train"], r.key("train"), where);
    return v;
}

std::string view_to_json(const ViewSettings& v) {
    json j;
    j["heatmap"] = v.heatmap;
    j["colormap"] = v.colormap;
    j["groups"] = v.palette;  // the key scenes have always used
    j["compare"] = v.compare;
    j["cube"] = v.cube;
    if (v.gradient) j["gradient"] = true;  // written only when on: older scenes stay byte-identical
    if (!v.experiment.empty()) j["experiment"] = v.experiment;
    if (v.train) j["train"] = train_scene_to_json(*v.train);
    return j.dump();
}

}  // namespace normlab::classroom
