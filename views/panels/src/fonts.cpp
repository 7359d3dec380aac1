#include "normlab/views/fonts.hpp"

#include "embedded_font.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace normlab::views {
namespace {

// Basic Latin + Latin-1, combining marks + Greek, General Punctuation through Mathematical
// Operators (superscripts, arrows, ∑ √ ≈ …), ceiling and floor (⌊ ⌋ in S_i), Geometric Shapes:
// the ranges the embedded font was cut to (scripts/subset-font.py's RANGES: keep the two in step).
const ImWchar kLatinRanges[] = {0x0020, 0x00FF, 0x0300, 0x03FF, 0x2000, 0x22FF, 0x2308, 0x230B, 0x25A0, 0x25FF, 0};

}  // namespace

std::string cjk_font_dir() {
    const char* env = std::getenv("NORMLAB_FONT_DIR");
    return env != nullptr && *env != '\0' ? env : "/usr/share/fonts";
}

FontSet load_fonts(const std::string& glyph_text, float raster_scale) {
    ImGuiIO& io = ImGui::GetIO();
    FontSet fs;
    // Latin, Greek and math come from the font compiled into the binary: never a file, so
    // never a '?' for μ or σ. Only the (large) CJK font is looked up on disk.
    const std::string dir = cjk_font_dir();
    const char* cjk_candidates[] = {"truetype/droid/DroidSansFallbackFull.ttf",  // fonts-droid-fallback
                                    "truetype/wqy/wqy-microhei.ttc"};            // fonts-wqy-microhei
    std::string cjk;
    for (const char* c : cjk_candidates) {
        std::string path = dir + "/" + c;
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) {  // ImGui asserts (aborts) on a missing file
            cjk = std::move(path);
            break;
        }
    }
    fs.cjk = !cjk.empty();
    if (!fs.cjk)
        fs.cjk_missing =
            "no Chinese font under " + dir +
            ": install fonts-droid-fallback or fonts-wqy-microhei (scripts/install-deps.sh); staying in English";
    static ImVector<ImWchar> cjk_ranges;
    if (fs.cjk && cjk_ranges.empty()) {
        ImFontGlyphRangesBuilder b;
        b.AddRanges(io.Fonts->GetGlyphRangesChineseSimplifiedCommon());
        b.AddText(glyph_text.c_str());
        b.BuildRanges(&cjk_ranges);
    }
    const std::span<const unsigned char> latin = embedded_latin_font();
    for (float size : {kNormalFontPx, kMediumFontPx, kLargeFontPx}) {
        const float px = std::round(size * raster_scale);
        ImFontConfig cfg;
        cfg.FontDataOwnedByAtlas = false;  // static data: ImGui keeps the pointer and must never free it
        std::snprintf(cfg.Name, sizeof cfg.Name, "DejaVu Sans (embedded), %.0fpx", static_cast<double>(px));
        ImFont* f = io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(latin.data()),
                                                   static_cast<int>(latin.size()), px, &cfg, kLatinRanges);
        if (fs.cjk) {
            ImFontConfig merge;
            merge.MergeMode = true;
            io.Fonts->AddFontFromFileTTF(cjk.c_str(), px, &merge, cjk_ranges.Data);
        }
        (size == kNormalFontPx ? fs.normal : size == kMediumFontPx ? fs.medium : fs.large) = f;
    }
    io.Fonts->TexDesiredWidth = 4096;
    return fs;
}

std::string missing_glyphs(const ImFont* font, const char* utf8) {
    std::string missing;
    const char* end = utf8 + std::strlen(utf8);
    for (const char* s = utf8; s < end;) {
        unsigned int c = 0;
        const char* start = s;
        s += ImTextCharFromUtf8(&c, s, end);
        if (c != 0 && font->FindGlyphNoFallback(static_cast<ImWchar>(c)) == nullptr) missing.append(start, s);
    }
    return missing;
}

}  // namespace normlab::views
