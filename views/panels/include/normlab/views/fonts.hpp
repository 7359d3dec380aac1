// Fonts: DejaVu Sans compiled into the binary (embedded_font.cpp) at two sizes (normal, and
// large for presenter mode: loaded at that size so text stays crisp) with a CJK font from
// disk merged in for Chinese, shared by the window and the headless figure renderer.
#pragma once
#include <string>

struct ImFont;

namespace normlab::views {

// The fonts the app draws with, loaded once at three sizes (crisp large text for presenter
// mode instead of a blurry scale: `large` on 1080 lines and more, `medium` below). `cjk`
// tells whether a Chinese font could be merged in.
struct FontSet {
    struct ImFont* normal = nullptr;
    struct ImFont* medium = nullptr;
    struct ImFont* large = nullptr;
    bool cjk = false;
    std::string cjk_missing;  // why Chinese is unavailable (when !cjk)
};
inline constexpr float kNormalFontPx = 17.0f;
inline constexpr float kMediumFontPx = 26.0f;
inline constexpr float kLargeFontPx = 34.0f;

// Where the CJK font is looked up: $NORMLAB_FONT_DIR when set (other distributions, tests
// that simulate a machine without fonts), else /usr/share/fonts.
std::string cjk_font_dir();

// Loads the embedded DejaVu Sans (Latin, Greek, math: no file needed) at kNormalFontPx,
// kMediumFontPx and kLargeFontPx, each rasterized at `raster_scale` times its size (HiDPI:
// the caller sets io.FontGlobalScale to what maps them back to ImGui units), into the current ImGui context and merges
// a CJK font found under cjk_font_dir() (fonts-droid-fallback or fonts-wqy-microhei) with the common simplified Chinese
// glyphs plus those of `glyph_text`. A missing CJK font is only reported in FontSet::cjk_missing (the caller says it
// once); the file is checked first (ImGui aborts).
FontSet load_fonts(const std::string& glyph_text, float raster_scale = 1.0f);

// The characters of `utf8` that `font` has no glyph for (drawn as '?'), in order; empty when
// all are there. Only meaningful once the atlas is built.
std::string missing_glyphs(const ImFont* font, const char* utf8);

}  // namespace normlab::views
