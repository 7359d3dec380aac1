#include "wrapped_text.hpp"

#include "line_break.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace normlab::app {

void wrapped_text(std::string_view text) {
    const float width = std::max(ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x);
    const auto measure = [](std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; };
    for (std::string_view line : break_lines(text, width, measure))
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

}  // namespace normlab::app
