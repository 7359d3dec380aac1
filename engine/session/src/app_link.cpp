#include "normlab/session/app_link.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

namespace normlab::session {
namespace {

constexpr std::string_view kScenePrefix = "normlab-scene:";

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

bool is_scene(std::string_view part) { return part.starts_with(kScenePrefix) || part.starts_with("{"); }

bool id_chars(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '-' || c == '_' || c == '.';
    });
}

int step_value(const std::string& v, const std::string& where) {
    const bool digits =
        !v.empty() && v.size() <= 6 && std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isdigit(c); });
    const int k = digits ? std::stoi(v) : 0;
    if (k < 1) throw core::InputError(where + ": step = '" + v + "' is not a step number (1, 2, …)");
    return k;
}

// One key=value part into `link`; false for a key the link does not know.
bool read_part(const std::string& key, const std::string& value, const std::string& where, AppLink& link) {
    if (key == "lesson") {
        if (!id_chars(value)) throw core::InputError(where + ": lesson = '" + value + "' is not a lesson id");
        link.lesson = value;
    } else if (key == "step") {
        link.step = step_value(value, where);
    } else if (key == "lang") {
        if (value != "en" && value != "zh") throw core::InputError(where + ": lang = '" + value + "' is not en or zh");
        link.language = value == "zh" ? core::Language::Zh : core::Language::En;
    } else if (key == "presenter") {
        if (value != "0" && value != "1") throw core::InputError(where + ": presenter = '" + value + "' is not 0 or 1");
        link.presenter = value == "1";
    } else {
        return false;
    }
    return true;
}

}  // namespace

AppLink AppLink::merged(const AppLink& later) const {
    AppLink m = *this;
    if (later.lesson) m.lesson = later.lesson, m.step = later.step;  // a lesson's step belongs to it
    if (later.language) m.language = later.language;
    if (later.presenter) m.presenter = later.presenter;
    if (!later.scene.empty()) m.scene = later.scene;
    return m;
}

std::string link_text(const AppLink& link) {
    std::vector<std::string> parts;
    if (link.lesson) {
        parts.push_back("lesson=" + *link.lesson);
        parts.push_back("step=" + std::to_string(link.step.value_or(1)));
    }
    if (link.language == core::Language::Zh) parts.emplace_back("lang=zh");
    if (link.presenter == true) parts.emplace_back("presenter=1");
    if (!link.scene.empty()) parts.push_back(link.scene);
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : "&") + p;
    return text;
}

AppLink parse_link(const std::string& text, const std::string& where, bool lenient) {
    AppLink link;
    const std::string t = trimmed(text);
    if (is_scene(t)) {  // a scene alone (its JSON may hold '&')
        link.scene = t;
        return link;
    }
    for (std::size_t at = 0; at < t.size();) {
        const std::size_t end = std::min(t.find('&', at), t.size());
        const std::string part = t.substr(at, end - at);
        at = end + 1;
        if (part.empty()) continue;
        if (part.starts_with(kScenePrefix)) {
            if (end < t.size()) throw core::InputError(where + ": the scene must be the link's last part");
            link.scene = part;
            break;
        }
        const std::size_t eq = part.find('=');
        const std::string key = part.substr(0, eq);
        const std::string value = eq == std::string::npos ? std::string() : part.substr(eq + 1);
        if (!read_part(key, value, where, link) && !lenient)
            throw core::InputError(where + ": '" + key + "' is not a part of a link (lesson, step, lang, presenter, " +
                                   std::string(kScenePrefix) + "…)");
    }
    if (link.step && !link.lesson)
        throw core::InputError(where + ": step = " + std::to_string(*link.step) + " without a lesson");
    return link;
}

}  // namespace normlab::session
