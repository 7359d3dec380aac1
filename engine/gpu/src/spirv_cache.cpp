// SPIR-V cache entries (spirv_cache.hpp).
#include "normlab/gpu/spirv_cache.hpp"

#include <cstring>
#include <set>
#include <sys/stat.h>

namespace normlab::gpu {

// Generated at build time from shaders/ (cmake/embed_shaders.cmake).
const std::map<std::string, std::string>& embedded_shaders();

namespace {

constexpr std::string_view kMagic = "NLSPIRV1";
constexpr std::uint32_t kSpirvMagic = 0x07230203;

// The names in `#include "x"` lines, followed through the embedded shaders (the includer
// compile_glsl uses), each once.
void collect_includes(const std::string& source, std::set<std::string>& seen) {
    std::size_t pos = 0;
    while ((pos = source.find("#include", pos)) != std::string::npos) {
        pos += 8;
        const std::size_t open = source.find('"', pos);
        const std::size_t eol = source.find('\n', pos);
        if (open == std::string::npos || (eol != std::string::npos && open > eol)) continue;
        const std::size_t close = source.find('"', open + 1);
        if (close == std::string::npos) break;
        std::string name = source.substr(open + 1, close - open - 1);
        if (!seen.insert(name).second) continue;
        const auto& all = embedded_shaders();
        if (auto it = all.find(name); it != all.end()) collect_includes(it->second, seen);
    }
}

}  // namespace

Digest spirv_key(const std::string& name, const std::string& source, const ShaderMacros& macros) {
    Hasher h;
    h.add(kMagic).add(shader_compiler_identity()).add(name).add(source);
    h.add(static_cast<std::uint64_t>(macros.size()));
    for (const auto& [k, v] : macros) h.add(k).add(v);
    std::set<std::string> includes;
    collect_includes(source, includes);
    const auto& all = embedded_shaders();
    for (const auto& inc : includes) {
        auto it = all.find(inc);
        h.add(inc).add(it == all.end() ? std::string_view("\0missing", 8) : std::string_view(it->second));
    }
    return h.digest();
}

std::string spirv_cache_path(const std::string& dir, const Digest& key) { return dir + "/spirv/" + key.hex() + ".spv"; }

std::vector<std::uint32_t> compile_glsl_cached(const std::string& name, const std::string& source,
                                               const ShaderMacros& macros, const std::optional<std::string>& dir) {
    if (!dir) return compile_glsl(name, source, macros);
    const Digest key = spirv_key(name, source, macros);
    const std::string path = spirv_cache_path(*dir, key);
    if (auto bytes = read_cache_entry(path, kMagic, key); bytes && bytes->size() >= 20 && bytes->size() % 4 == 0) {
        std::vector<std::uint32_t> words(bytes->size() / 4);
        std::memcpy(words.data(), bytes->data(), bytes->size());
        if (words[0] == kSpirvMagic) return words;
    }
    auto words = compile_glsl(name, source, macros);
    ::mkdir((*dir + "/spirv").c_str(), 0700);  // fails harmlessly when it exists
    write_cache_entry(path, kMagic, key,
                      std::string_view(reinterpret_cast<const char*>(words.data()), words.size() * 4));
    return words;
}

}  // namespace normlab::gpu
