#include "normlab/io/json_reader.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cmath>

namespace normlab::io {

using nlohmann::json;

json parse_json_text(const std::string& text, const std::string& name) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        const std::string what = e.what();  // "[json.exception.parse_error.101] parse error at ..."
        const std::size_t bracket = what.find(']');
        const std::string why = bracket == std::string::npos ? what : what.substr(bracket + 2);
        throw core::InputError(name + ": not valid JSON (" + why + ")");
    }
}

JsonReader::JsonReader(const json& j, std::string where, std::string name, const std::string& what)
    : j_(j), where_(std::move(where)), name_(std::move(name)) {
    if (!j_.is_object()) fail(where_.empty() ? what + " must be a JSON object" : where_ + " must be an object");
}

void JsonReader::fail(const std::string& why) const { throw core::InputError(name_ + ": " + why); }

std::string JsonReader::key(const std::string& k) const { return where_.empty() ? k : where_ + "." + k; }

bool JsonReader::has(const std::string& k) const { return j_.contains(k) && !j_.at(k).is_null(); }

const json& JsonReader::get(const std::string& k) const {
    auto it = j_.find(k);  // nlohmann's at() would throw its own exception
    if (it == j_.end()) fail(key(k) + " is missing");
    return *it;
}

JsonReader JsonReader::child(const std::string& k) const { return JsonReader(get(k), key(k), name_); }

void JsonReader::only_keys(std::initializer_list<std::string_view> allowed, const std::string& what) const {
    for (const auto& [k, v] : j_.items()) {
        bool known = false;
        for (std::string_view a : allowed) known = known || k == a;
        if (known) continue;
        std::string list;
        std::size_t i = 0;
        for (std::string_view a : allowed) {
            list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::string(a);
            ++i;
        }
        fail("unknown " + what + " '" + k + "' (" + list + ")");
    }
}

void JsonReader::format_version(const std::string& k, const std::string& what) const {
    if (!has(k) || integer(k, 1, 1) != 1) fail("not a normlab " + what + " (needs \"" + k + "\": 1)");
}

std::int64_t JsonReader::integer(const std::string& k, std::int64_t lo, std::int64_t hi) const {
    const json& v = get(k);
    if (!v.is_number_integer()) fail(key(k) + " must be an integer");
    std::int64_t x = v.get<std::int64_t>();
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) x = hi + 1;
    if (x < lo || x > hi)
        fail(key(k) + " = " + v.dump() + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return x;
}

double JsonReader::number(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_number()) fail(key(k) + " must be a number");
    return v.get<double>();
}

bool JsonReader::boolean(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_boolean()) fail(key(k) + " must be true or false");
    return v.get<bool>();
}

std::string JsonReader::string(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_string()) fail(key(k) + " must be a string");
    return v.get<std::string>();
}

std::string JsonReader::nonempty_string(const std::string& k) const {
    if (!j_.contains(k)) fail(key(k) + " is missing (a non-empty string)");
    const json& v = get(k);
    if (!v.is_string() || v.get<std::string>().empty()) fail(key(k) + " must be a non-empty string");
    return v.get<std::string>();
}

std::vector<std::int64_t> JsonReader::dims(const std::string& k, std::size_t lo, std::size_t hi) const {
    const json& v = get(k);
    if (!v.is_array() || v.size() < lo || v.size() > hi)
        fail(key(k) + " must be a list of " + std::to_string(lo) + (lo == hi ? "" : " to " + std::to_string(hi)) +
             " integers");
    std::vector<std::int64_t> out;
    for (const auto& e : v) {
        if (!e.is_number_integer() || e.get<std::int64_t>() < 0 ||
            (e.is_number_unsigned() && e.get<std::uint64_t>() > (1ull << 40)))
            fail(key(k) + " must hold non-negative integers");
        out.push_back(e.get<std::int64_t>());
    }
    return out;
}

std::vector<float> JsonReader::floats(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_array()) fail(key(k) + " must be a list of numbers");
    std::vector<float> out;
    for (const auto& e : v) {
        if (!e.is_number()) fail(key(k) + " must be a list of numbers");
        // JSON has no Inf/NaN: a value beyond float32 would become Inf and save as null.
        const float f = static_cast<float>(e.get<double>());
        if (!std::isfinite(f)) fail(key(k) + " holds " + e.dump() + ", which does not fit a float32");
        out.push_back(f);
    }
    return out;
}

std::vector<std::string> JsonReader::strings(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_array()) fail(key(k) + " must be a list of strings");
    std::vector<std::string> out;
    for (const auto& e : v) {
        if (!e.is_string()) fail(key(k) + " must be a list of strings");
        out.push_back(e.get<std::string>());
    }
    return out;
}

const json& JsonReader::list(const std::string& k, std::size_t lo, std::size_t hi) const {
    const json& v = get(k);
    if (!v.is_array() || v.size() < lo)
        fail(key(k) + (lo == 1 ? " must be a non-empty list" : " must be a list of at least " + std::to_string(lo)));
    if (v.size() > hi) fail(key(k) + " has more than " + std::to_string(hi) + " elements");
    return v;
}

core::LocalText JsonReader::text(const std::string& k, bool required) const {
    const std::string form = " (an object {\"en\": ..., \"zh\": ...})";
    core::LocalText t;
    if (!has(k)) {
        if (required) fail(key(k) + " is missing" + form);
        return t;
    }
    const json& v = get(k);
    if (v.is_string()) {  // English only
        t.en = v.get<std::string>();
        if (t.en.empty()) fail(key(k) + " is empty" + form);
        return t;
    }
    if (!v.is_object()) fail(key(k) + " must be an object {\"en\": ..., \"zh\": ...}");
    for (const auto& [lang, text] : v.items()) {
        if (lang != "en" && lang != "zh") fail(key(k) + " has unknown language '" + lang + "' (en or zh)");
        if (!text.is_string()) fail(key(k) + "." + lang + " must be a string");
        (lang == "en" ? t.en : t.zh) = text.get<std::string>();
    }
    if (t.en.empty()) fail(key(k) + ".en is missing or empty");
    return t;
}

void check_state_for_shape(const core::State& s, const core::Shape4& shape, const std::string& name,
                           const std::string& note) {
    try {
        core::StatLayout layout = core::make_layout(s.spec, shape);
        s.params.validate(s.spec, layout);
        core::validate_selection(s.selection, shape);
    } catch (const core::InputError& e) {
        throw core::InputError(name + ": " + e.what() + note);
    }
}

}  // namespace normlab::io
