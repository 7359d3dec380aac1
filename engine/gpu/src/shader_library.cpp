#include "normlab/gpu/shader_library.hpp"

#include "normlab/gpu/cache_file.hpp"
#include "normlab/gpu/spirv_cache.hpp"

#include <glslang/build_info.h>
#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.h>

#include <memory>
#include <mutex>
#include <stdexcept>

namespace normlab::gpu {

// Generated at build time from shaders/*.{comp,vert,frag} (cmake/embed_shaders.cmake).
const std::map<std::string, std::string>& embedded_shaders();

const std::string& shader_source(const std::string& name) {
    const auto& all = embedded_shaders();
    auto it = all.find(name);
    if (it == all.end()) throw ShaderError("unknown shader " + name);
    return it->second;
}

std::vector<std::string> shader_names() {
    std::vector<std::string> out;
    for (const auto& [k, v] : embedded_shaders()) out.push_back(k);
    return out;
}

namespace {
// Resolves #include "x.glsl" from the embedded shaders.
class EmbeddedIncluder : public shaderc::CompileOptions::IncluderInterface {
    struct Result {
        shaderc_include_result result;
        std::string name, content;
    };

public:
    shaderc_include_result* GetInclude(const char* requested, shaderc_include_type, const char*, size_t) override {
        auto* r = new Result;
        r->name = requested;
        const auto& all = embedded_shaders();
        auto it = all.find(requested);
        if (it != all.end()) {
            r->content = it->second;
        } else {
            r->name.clear();  // an empty source name tells shaderc the include failed
            r->content = std::string("cannot find include ") + requested;
        }
        r->result = {r->name.c_str(), r->name.size(), r->content.c_str(), r->content.size(), r};
        return &r->result;
    }
    void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data->user_data); }
};
}  // namespace

// The options below, in words: change both together (the cache key is built from this).
constexpr const char* kCompileOptions = "vulkan1.1 spirv1.3 optimize=performance includes=embedded";

const std::string& shader_compiler_identity() {
    static const std::string id = [] {
        unsigned spv_version = 0, spv_revision = 0;
        shaderc_get_spv_version(&spv_version, &spv_revision);
        return std::string("shaderc ") + NORMLAB_SHADERC_VERSION + "; glslang " +
               std::to_string(GLSLANG_VERSION_MAJOR) + "." + std::to_string(GLSLANG_VERSION_MINOR) + "." +
               std::to_string(GLSLANG_VERSION_PATCH) + GLSLANG_VERSION_FLAVOR + "; " +
               spvSoftwareVersionDetailsString() + "; spv " + std::to_string(spv_version) + "." +
               std::to_string(spv_revision) + "; " + kCompileOptions;
    }();
    return id;
}

std::vector<std::uint32_t> compile_glsl(const std::string& name, const std::string& source,
                                        const ShaderMacros& macros) {
    shaderc::Compiler compiler;
    shaderc::CompileOptions options;
    options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    options.SetTargetSpirv(shaderc_spirv_version_1_3);
    options.SetOptimizationLevel(shaderc_optimization_level_performance);
    for (const auto& [k, v] : macros) options.AddMacroDefinition(k, v);
    options.SetIncluder(std::make_unique<EmbeddedIncluder>());
    shaderc_shader_kind kind = shaderc_glsl_compute_shader;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".vert") == 0) kind = shaderc_glsl_vertex_shader;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".frag") == 0) kind = shaderc_glsl_fragment_shader;
    auto result = compiler.CompileGlslToSpv(source, kind, name.c_str(), options);
    if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
        std::string msg = result.GetErrorMessage();
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) msg.pop_back();
        for (auto& ch : msg)
            if (ch == '\n') ch = ' ';
        throw ShaderError("shader " + name + " failed to compile: " + msg);
    }
    return {result.cbegin(), result.cend()};
}

const std::vector<std::uint32_t>& compiled_shader(const std::string& name, const ShaderMacros& macros) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, ShaderMacros>, std::vector<std::uint32_t>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto key = std::make_pair(name, macros);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    return cache.emplace(key, compile_glsl_cached(name, shader_source(name), macros, cache_directory())).first->second;
}

}  // namespace normlab::gpu
