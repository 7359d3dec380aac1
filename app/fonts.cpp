#include "fonts.hpp"

#include <imgui.h>

#include <filesystem>

namespace normlab::app {

FontSet load_fonts(const std::string& glyph_text) {
    ImGuiIO& io = ImGui::GetIO();
    FontSet fs;
    const char* latin = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    const char* cjk_candidates[] = {"/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
                                    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"};
    const char* cjk = nullptr;
    for (const char* c : cjk_candidates)
        if (std::filesystem::exists(c)) {  // ImGui asserts (aborts) on a missing file
            cjk = c;
            break;
        }
    fs.cjk = cjk != nullptr && std::filesystem::exists(latin);
    if (!fs.cjk)
        fs.cjk_missing = std::filesystem::exists(latin)
                             ? "no Chinese font: install fonts-droid-fallback (scripts/install-deps.sh); staying in English"
                             : "no DejaVu Sans: install fonts-dejavu-core and fonts-droid-fallback; staying in English";
    static const ImWchar latin_ranges[] = {0x0020, 0x00FF, 0x0300, 0x03FF, 0x2000, 0x22FF, 0x25A0, 0x25FF, 0};
    static ImVector<ImWchar> cjk_ranges;
    if (fs.cjk && cjk_ranges.empty()) {
        ImFontGlyphRangesBuilder b;
        b.AddRanges(io.Fonts->GetGlyphRangesChineseSimplifiedCommon());
        b.AddText(glyph_text.c_str());
        b.BuildRanges(&cjk_ranges);
    }
    for (float px : {kNormalFontPx, kLargeFontPx}) {
        ImFont* f = nullptr;
        if (std::filesystem::exists(latin)) {
            f = io.Fonts->AddFontFromFileTTF(latin, px, nullptr, latin_ranges);
        } else {
            ImFontConfig cfg;
            cfg.SizePixels = px;
            f = io.Fonts->AddFontDefault(&cfg);
        }
        if (fs.cjk) {
            ImFontConfig merge;
            merge.MergeMode = true;
            io.Fonts->AddFontFromFileTTF(cjk, px, &merge, cjk_ranges.Data);
        }
        (px == kNormalFontPx ? fs.normal : fs.large) = f;
    }
    io.Fonts->TexDesiredWidth = 4096;
    return fs;
}

}  // namespace normlab::app
