// The app's two languages: tr("English text") returns the Simplified Chinese translation
// while Chinese is on (and the English text when none is in the table, views/panels/src/i18n.cpp).
// Chinese needs a CJK font (fonts-droid-fallback); without it the app stays in English
// and says why.
#pragma once
#include "normlab/core/local_text.hpp"

#include <string>

namespace normlab::views {

core::Language language();
// Returns false (and keeps English) when Chinese was asked for but no CJK font is loaded.
bool set_language(core::Language lang);
void set_cjk_font(bool available, std::string missing_message);
bool cjk_font();
const std::string& cjk_missing_message();

const char* tr(const char* english);
// tr(english) + "###" + id: a label whose ImGui id stays the same in both languages.
std::string tr_id(const char* english, const char* id);
// Where the numbers shown were computed: "CPU" on the CPU backend, "GPU" on Vulkan or WebGPU.
inline const char* compute_unit(bool on_cpu) { return on_cpu ? "CPU" : "GPU"; }
const std::string& tr(const core::LocalText& text);

// Every Chinese string of the table (the font atlas is built with exactly these glyphs).
std::string all_chinese_text();

}  // namespace normlab::views
