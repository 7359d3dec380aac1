#include "normlab/views/line_break.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace normlab::views {
namespace {

struct Char {
    std::size_t begin, end;  // bytes of the code point in the text
    char32_t cp;
};

// The code points of `s` with their byte ranges; an invalid byte is one U+FFFD.
std::vector<Char> decode(std::string_view s) {
    std::vector<Char> out;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        bool ok = len > 0 && i + static_cast<std::size_t>(len) <= s.size();
        char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; ok && k < len; ++k) {
            const auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            ok = (c & 0xC0) == 0x80;
            cp = (cp << 6) | (c & 0x3F);
        }
        const std::size_t n = ok ? static_cast<std::size_t>(len) : 1;
        out.push_back({i, i + n, ok ? cp : 0xFFFD});
        i += n;
    }
    return out;
}

bool in(char32_t c, std::u32string_view set) { return set.find(c) != std::u32string_view::npos; }

bool is_space(char32_t c) { return c == U' ' || c == U'\t'; }

}  // namespace

bool no_line_start(char32_t c) {
    return in(c,
              U"。．，、；：？！）］｝」』》〉】〕〗〙〛’”…‥・％～ー々ぁぃぅぇぉっゃゅょァィゥェォッャュョ"
              U"，．：；？！）］｝,.;:?!)]}%");
}

bool no_line_end(char32_t c) { return in(c, U"（［｛「『《〈【〔〖〘〚‘“([{"); }

bool is_cjk(char32_t c) {
    return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x2FDF) || (c >= 0x3000 && c <= 0x33FF) ||
           (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFEF) ||
           (c >= 0x20000 && c <= 0x2FFFF);
}

namespace {

// Whether a line may start at character i of the paragraph (i > 0).
bool may_start(const std::vector<Char>& ch, std::size_t i) {
    const char32_t prev = ch[i - 1].cp, cur = ch[i].cp;
    if (is_space(cur) || no_line_start(cur)) return false;
    if (is_space(prev)) return true;
    return (is_cjk(prev) || is_cjk(cur)) && !no_line_end(prev);
}

// One paragraph (no '\n') into lines.
void break_paragraph(std::string_view text, std::size_t from, std::size_t to, float width, const MeasureText& measure,
                     std::vector<std::string_view>& lines) {
    const std::vector<Char> all = decode(text.substr(from, to - from));
    const std::size_t n = all.size();
    auto bytes = [&](std::size_t i) { return i < n ? all[i].begin : to - from; };
    // The line [a, b) without its trailing spaces, as a view into `text`.
    auto piece = [&](std::size_t a, std::size_t b) {
        while (b > a && is_space(all[b - 1].cp)) --b;
        return text.substr(from + bytes(a), bytes(b) - bytes(a));
    };
    std::size_t a = 0;
    if (n == 0) lines.push_back(text.substr(from, 0));
    while (a < n) {
        // The farthest break that fits; else the first break (an unbreakable piece).
        std::size_t best = 0, first = 0;
        for (std::size_t b = a + 1; b <= n; ++b) {
            if (b < n && !may_start(all, b)) continue;
            if (first == 0) first = b;
            if (measure(piece(a, b)) > width) break;
            best = b;
        }
        std::size_t end = best;
        if (end == 0) {  // the first piece is wider than the line: cut it by characters
            end = a + 1;
            for (std::size_t b = a + 2; b <= first; ++b) {
                if (measure(piece(a, b)) > width) break;
                end = b;
            }
            // Keep the punctuation rules where the piece allows: a shorter line, else one a
            // punctuation mark wider.
            auto keeps_rules = [&](std::size_t b) {
                return b == first || (!no_line_start(all[b].cp) && !no_line_end(all[b - 1].cp));
            };
            std::size_t ok = 0;
            for (std::size_t b = end; b > a && ok == 0; --b)
                if (keeps_rules(b)) ok = b;
            for (std::size_t b = end + 1; b <= first && ok == 0; ++b)
                if (keeps_rules(b)) ok = b;
            if (ok != 0) end = ok;
        }
        lines.push_back(piece(a, end));
        a = end;
        while (a < n && is_space(all[a].cp)) ++a;  // the spaces at a break are dropped
    }
}

}  // namespace

std::vector<std::string_view> break_lines(std::string_view text, float width, const MeasureText& measure) {
    std::vector<std::string_view> lines;
    std::size_t from = 0;
    while (true) {
        const std::size_t nl = text.find('\n', from);
        const std::size_t to = nl == std::string_view::npos ? text.size() : nl;
        break_paragraph(text, from, to, width, measure, lines);
        if (nl == std::string_view::npos) break;
        from = nl + 1;
    }
    return lines;
}

}  // namespace normlab::views
