// A scene as one line for the clipboard (state.hpp): "normlab-scene:" + base64url of the
// scene's compact JSON, so a chat program cannot turn its quotes into curly ones.
#include "normlab/core/error.hpp"
#include "normlab/core/state.hpp"
#include "normlab/io/scene_file.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <string_view>

namespace normlab::io {

namespace {

constexpr std::string_view kPrefix = "normlab-scene:";
constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string base64url(const std::string& in) {
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (unsigned char ch : in) {
        acc = (acc << 8) | ch;
        bits += 8;
        while (bits >= 6) out += kAlphabet[(acc >> (bits -= 6)) & 63u];
    }
    if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 63u];
    return out;
}

// nullopt on a character outside the alphabet or a length no encoder gives.
std::optional<std::string> from_base64url(std::string_view in) {
    if (in.size() % 4 == 1) return std::nullopt;
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (char ch : in) {
        const auto v = kAlphabet.find(ch);
        if (v == std::string_view::npos) return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) out += static_cast<char>((acc >> (bits -= 8)) & 0xFFu);
    }
    return out;
}

std::string_view trim(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace

std::string scene_to_line(const core::State& state) {
    const std::string compact = nlohmann::json::parse(scene_to_json(state)).dump();
    return std::string(kPrefix) + base64url(compact);
}

core::State scene_from_line(const std::string& text, const std::string& name) {
    const std::string_view t = trim(text);
    if (t.empty()) throw core::InputError(name + ": empty (copy a scene first)");
    if (t.substr(0, kPrefix.size()) == kPrefix) {
        auto json = from_base64url(trim(t.substr(kPrefix.size())));
        if (!json) throw core::InputError(name + ": the text after \"normlab-scene:\" is cut or changed");
        return scene_from_json(*json, name);
    }
    if (t.front() == '{') return scene_from_json(std::string(t), name);
    throw core::InputError(name + ": not a normlab scene (it starts with neither \"normlab-scene:\" nor \"{\")");
}

}  // namespace normlab::io
