#include "normlab/views/wrapped_text.hpp"

#include "normlab/views/line_break.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace normlab::views {
namespace {
float text_width(std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; }
}  // namespace

void wrapped_text(std::string_view text) {
    const float width = std::max(ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x);
    for (std::string_view line : break_lines(text, width, text_width))
        ImGui::TextUnformatted(line.data(), line.data() + line.size());
}

void wrapped_text_colored(const ImVec4& color, std::string_view text) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    wrapped_text(text);
    ImGui::PopStyleColor();
}

void wrapped_text_disabled(std::string_view text) {
    wrapped_text_colored(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], text);
}

void same_line_if_fits(float width) {
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + spacing + width <= right) ImGui::SameLine();
}

std::string elided(std::string_view text, float width) {
    if (text_width(text) <= width) return std::string(text);
    const std::string_view dots = "…";
    // The longest prefix, ending at a character's first byte, that fits with the dots.
    std::size_t lo = 0, hi = text.size();
    while (lo < hi) {
        std::size_t mid = (lo + hi + 1) / 2;
        while (mid > lo && (static_cast<unsigned char>(text[mid]) & 0xC0) == 0x80) --mid;  // a continuation byte
        if (mid == lo) break;
        if (text_width(std::string(text.substr(0, mid)) + std::string(dots)) <= width)
            lo = mid;
        else
            hi = mid - 1;
    }
    return std::string(text.substr(0, lo)) + std::string(dots);
}

bool menu_item_fitting(const std::string& label, const std::string& id, bool selected) {
    const ImGuiStyle& st = ImGui::GetStyle();
    // The screen less a popup's padding, the room ImGui keeps for a check mark and the safe area.
    const float width = ImGui::GetIO().DisplaySize.x - 2 * (st.WindowPadding.x + st.DisplaySafeAreaPadding.x) -
                        2 * ImGui::GetFontSize() - 2 * st.ItemSpacing.x;
    const std::string shown = elided(label, std::max(width, ImGui::GetFontSize() * 4));
    const bool chosen = ImGui::MenuItem((shown + "##" + id).c_str(), nullptr, selected);
    if (shown != label && ImGui::IsItemHovered()) elided_tooltip(label);
    return chosen;
}

void elided_tooltip(std::string_view text) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float width = ImGui::GetIO().DisplaySize.x - 2 * (st.WindowPadding.x + st.DisplaySafeAreaPadding.x);
    ImGui::BeginTooltip();  // in lines as wide as the screen allows
    for (std::string_view line : break_lines(text, std::max(width, ImGui::GetFontSize() * 4), text_width))
        ImGui::TextUnformatted(line.data(), line.data() + line.size());
    ImGui::EndTooltip();
}

std::string strf(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string out(static_cast<std::size_t>(std::max(0, n)), '\0');
    if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
    va_end(args);
    return out;
}

}  // namespace normlab::views
