// break_lines (normlab/views/line_break.hpp): Chinese line-breaking rules (kinsoku) on Chinese, Latin
// and mixed text, with a fixed-width measure: a Latin code point is 1 wide, a CJK one 2.
#include "normlab/views/line_break.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace normlab::views;

namespace {

std::vector<char32_t> code_points(std::string_view s) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : 4;
        char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(cp);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

float fixed_width(std::string_view s) {
    float w = 0;
    for (char32_t c : code_points(s)) w += is_cjk(c) ? 2.0f : 1.0f;
    return w;
}

std::vector<std::string> wrap(std::string_view text, float width) {
    std::vector<std::string> out;
    for (auto l : break_lines(text, width, fixed_width)) out.emplace_back(l);
    return out;
}

using Lines = std::vector<std::string>;

// The rules every result must keep: no line starts with closing punctuation or ends with
// opening punctuation (when the text allows it), no line is wider than `width` unless it is
// one unbreakable piece, and nothing but the spaces at the breaks is lost.
void check_rules(std::string_view text, float width) {
    INFO("text: " << text << "  width " << width);
    const auto lines = break_lines(text, width, fixed_width);
    std::string joined;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto cps = code_points(lines[i]);
        INFO("line " << i << ": '" << std::string(lines[i]) << "'");
        if (i > 0 && !cps.empty()) CHECK_FALSE(no_line_start(cps.front()));
        if (i + 1 < lines.size() && !cps.empty()) CHECK_FALSE(no_line_end(cps.back()));
        CHECK(fixed_width(lines[i]) <= width + 2.0f);  // at most one glued punctuation mark over
        joined += std::string(lines[i]);
    }
    std::string no_spaces;
    for (char c : text)
        if (c != ' ' && c != '\n') no_spaces += c;
    std::string joined_no_spaces;
    for (char c : joined)
        if (c != ' ') joined_no_spaces += c;
    CHECK(joined_no_spaces == no_spaces);
}

}  // namespace

TEST_CASE("Latin text breaks at spaces, and the spaces at a break are dropped") {
    CHECK(wrap("the quick brown fox", 10) == Lines{"the quick", "brown fox"});
    CHECK(wrap("the quick brown fox", 19) == Lines{"the quick brown fox"});
    CHECK(wrap("the quick brown fox", 100) == Lines{"the quick brown fox"});
    CHECK(wrap("a  b", 1) == Lines{"a", "b"});
    CHECK(wrap("", 10) == Lines{""});
    CHECK(wrap("one\ntwo three", 5) == Lines{"one", "two", "three"});
    CHECK(wrap("end\n", 10) == Lines{"end", ""});
}

TEST_CASE("a word wider than the line is cut by characters") {
    CHECK(wrap("abcdefghij", 4) == Lines{"abcd", "efgh", "ij"});
    CHECK(wrap("ab normalization cd", 6) == Lines{"ab", "normal", "izatio", "n cd"});
    CHECK(wrap("x", 0.5f) == Lines{"x"});  // at least one character per line
}

TEST_CASE("Chinese breaks between characters") {
    CHECK(wrap("批归一化层", 4) == Lines{"批归", "一化", "层"});
    CHECK(wrap("批归一化层", 5) == Lines{"批归", "一化", "层"});
    CHECK(wrap("批归一化层", 10) == Lines{"批归一化层"});
}

TEST_CASE("no line starts with closing punctuation") {
    // Without the rule the break after 一化 would put 。 first on the next line.
    CHECK(wrap("批归一化。然后", 8) == Lines{"批归一", "化。然后"});
    CHECK(wrap("甲乙，丙丁", 4) == Lines{"甲", "乙，", "丙丁"});
    for (const char* p : {"。", "，", "、", "；", "：", "？", "！", "）", "」", "』"}) {
        const std::string text = std::string("一二三") + p + "四五";
        const auto lines = wrap(text, 6);  // 一二三 fills the line exactly
        INFO(text);
        REQUIRE(lines.size() >= 2);
        CHECK(lines[1].rfind(p, 0) != 0);
        check_rules(text, 6);
    }
}

TEST_CASE("no line ends with opening punctuation") {
    CHECK(wrap("甲乙（丙丁）", 6) == Lines{"甲乙", "（丙", "丁）"});
    for (const char* p : {"（", "「", "『"}) {
        const std::string text = std::string("一二") + p + "三四";
        const auto lines = wrap(text, 6);  // 一二 + the bracket fill the line exactly
        INFO(text);
        REQUIRE(lines.size() >= 2);
        CHECK(lines[0].size() >= std::string(p).size());
        CHECK(lines[0].substr(lines[0].size() - std::string(p).size()) != p);
        check_rules(text, 6);
    }
}

TEST_CASE("runs of punctuation stay together") {
    CHECK(wrap("他说：「好。」然后", 10) == Lines{"他说：", "「好。」然", "后"});
    check_rules("他说：「好。」然后走了。", 6);
    CHECK(wrap("（「『甲』」）", 4) == Lines{"（「『甲』」）"});  // no break keeps the rules: one line
}

TEST_CASE("mixed Chinese and Latin text") {
    // A break may fall between a Chinese character and a Latin word, never inside the word.
    CHECK(wrap("使用BatchNorm层", 11) == Lines{"使用", "BatchNorm层"});
    CHECK(wrap("BatchNorm2d：每个通道一个统计量。", 14) == Lines{"BatchNorm2d：", "每个通道一个统", "计量。"});
    // Latin punctuation after a Chinese character also stays on its line.
    CHECK(wrap("统计量, 然后", 7) == Lines{"统计量,", "然后"});
    CHECK(wrap("μ 和 σ² 来自 N·H·W = 64 个元素（整个批次）。", 12) ==
          Lines{"μ 和 σ² 来自", "N·H·W = 64", "个元素（整个", "批次）。"});
    check_rules("LayerNorm 对每个样本单独计算 μ 和 σ²（跨 C、H、W），与批次大小无关。", 10);
    check_rules("GroupNorm(G=2)：每组 C/G = 3 个通道；G=1 时等价于 LayerNorm([C,H,W])。", 9);
}

TEST_CASE("long words inside Chinese text") {
    check_rules("见 https://example.org/a/very/long/path/that/does/not/fit 这个链接。", 12);
    check_rules("参数supercalifragilisticexpialidocious。", 8);
}

TEST_CASE("the rules hold at every width") {
    const char* texts[] = {
        "BatchNorm2d：行是 4 个样本，列是 6 个通道。每种颜色是一个统计量：一个通道汇集所有样本的 N·H·W = 64 "
        "个值。所选元素的组是一整列。",
        "评估模式下的 BatchNorm：滑动统计量是常数，所以 ∂y_k/∂x 只在 x_k 自身处非零。样本之间没有耦合。",
        "「引号」、（括号）；还有『双引号』！问号？",
        "The seeds' formula averages the devices' variances, which is wrong whenever the means differ.",
        "混合 text 和中文，with commas, 和句号。"};
    for (const char* t : texts)
        for (int w = 4; w <= 40; ++w) check_rules(t, static_cast<float>(w));
}

TEST_CASE("the character classes") {
    CHECK(is_cjk(U'中'));
    CHECK(is_cjk(U'。'));
    CHECK(is_cjk(U'（'));
    CHECK_FALSE(is_cjk(U'a'));
    CHECK_FALSE(is_cjk(U'μ'));
    CHECK(no_line_start(U'。'));
    CHECK(no_line_start(U'」'));
    CHECK_FALSE(no_line_start(U'（'));
    CHECK(no_line_end(U'（'));
    CHECK(no_line_end(U'『'));
    CHECK_FALSE(no_line_end(U'。'));
}
