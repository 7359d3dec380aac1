// LocalText: a short text in the two languages normlab speaks, English and Simplified
// Chinese. Lessons, experiments and presets carry both; the app picks one at run time.
#pragma once
#include <string>

namespace normlab::core {

enum class Language { En, Zh };

struct LocalText {
    std::string en, zh;
    // The text in `lang`, falling back to English when no translation was written.
    const std::string& in(Language lang) const { return lang == Language::Zh && !zh.empty() ? zh : en; }
};

}  // namespace normlab::core
