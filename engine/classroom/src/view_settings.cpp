#include "normlab/view_settings.hpp"

#include "normlab/error.hpp"

#include <nlohmann/json.hpp>

namespace normlab {

using nlohmann::json;

namespace {

std::string one_of(const json& j, const std::string& key, std::initializer_list<const char*> allowed, const std::string& where) {
    const json& v = j.at(key);
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    if (!v.is_string()) throw InputError(where + ": view." + key + " must be one of " + list);
    const std::string s = v.get<std::string>();
    for (const char* a : allowed)
        if (s == a) return s;
    throw InputError(where + ": view." + key + " = '" + s + "' is not one of " + list);
}

bool flag(const json& j, const std::string& key, const std::string& where) {
    const json& v = j.at(key);
    if (!v.is_boolean()) throw InputError(where + ": view." + key + " must be true or false");
    return v.get<bool>();
}

}  // namespace

ViewSettings parse_view(const std::string& text, const std::string& where) {
    ViewSettings v;
    if (text.empty()) return v;
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception&) {
        throw InputError(where + ": view is not valid JSON");
    }
    if (!j.is_object()) throw InputError(where + ": view must be an object");
    for (const auto& [key, value] : j.items()) {
        if (key == "heatmap") v.heatmap = one_of(j, key, {"input", "output", "diff", "stats"}, where);
        else if (key == "colormap") v.colormap = one_of(j, key, {"diverging", "viridis", "cividis"}, where);
        else if (key == "groups") v.groups = one_of(j, key, {"okabe-ito", "hues"}, where);
        else if (key == "compare") v.compare = flag(j, key, where);
        else if (key == "cube") v.cube = flag(j, key, where);
        else if (key == "experiment") {
            if (!value.is_string()) throw InputError(where + ": view.experiment must be a string");
            v.experiment = value.get<std::string>();
        } else {
            throw InputError(where + ": unknown view key '" + key +
                             "' (heatmap, colormap, groups, compare, cube or experiment)");
        }
    }
    return v;
}

std::string view_to_json(const ViewSettings& v) {
    json j;
    j["heatmap"] = v.heatmap;
    j["colormap"] = v.colormap;
    j["groups"] = v.groups;
    j["compare"] = v.compare;
    j["cube"] = v.cube;
    if (!v.experiment.empty()) j["experiment"] = v.experiment;
    return j.dump();
}

}  // namespace normlab
