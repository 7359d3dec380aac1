// ShaderLibrary: the GLSL sources in shaders/ (embedded into the binary at build time) and
// their compilation to SPIR-V with libshaderc at run time, cached per name + macros in memory
// and between runs on disk (spirv_cache.hpp).
#pragma once
#include "normlab/core/error.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace normlab::gpu {

// A shader that fails to compile is a device-side fault (CLI exit status 3).
class ShaderError : public core::DeviceError {
public:
    explicit ShaderError(const std::string& what) : core::DeviceError(what) {}
};

// The embedded source of shaders/<name> (e.g. "norm_stats.comp"); throws if unknown.
const std::string& shader_source(const std::string& name);
std::vector<std::string> shader_names();

using ShaderMacros = std::vector<std::pair<std::string, std::string>>;

// Compiles GLSL compute/vertex/fragment source (kind from the file suffix) to SPIR-V 1.3
// for Vulkan 1.1. Throws ShaderError carrying the compiler's message.
std::vector<std::uint32_t> compile_glsl(const std::string& name, const std::string& source,
                                        const ShaderMacros& macros = {});

// What decides compile_glsl's output besides its arguments: the versions of shaderc, glslang and
// SPIRV-Tools linked in and the compile options (part of the SPIR-V cache key).
const std::string& shader_compiler_identity();

// compile_glsl(name, shader_source(name), macros), cached in memory and in cache_directory().
const std::vector<std::uint32_t>& compiled_shader(const std::string& name, const ShaderMacros& macros = {});

}  // namespace normlab::gpu
