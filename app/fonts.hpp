// Fonts: DejaVu Sans at two sizes (normal, and large for presenter mode: loaded at that
// size so text stays crisp) with a CJK font merged in for Chinese, shared by the window and
// the headless figure renderer.
#pragma once
#include <string>

struct ImFont;

namespace normlab::app {

// The fonts the app draws with, loaded once at two sizes (crisp large text for presenter
// mode instead of a blurry scale). `cjk` tells whether a Chinese font could be merged in.
struct FontSet {
    struct ImFont* normal = nullptr;
    struct ImFont* large = nullptr;
    bool cjk = false;
    std::string cjk_missing;  // why Chinese is unavailable (when !cjk)
};
inline constexpr float kNormalFontPx = 17.0f;
inline constexpr float kLargeFontPx = 34.0f;

// Loads DejaVu Sans at kNormalFontPx and kLargeFontPx into the current ImGui context and
// merges a CJK font (fonts-droid-fallback or fonts-wqy-microhei) with the common simplified
// Chinese glyphs plus those of `glyph_text`. Missing files are checked first (ImGui aborts).
FontSet load_fonts(const std::string& glyph_text);

}  // namespace normlab::app
