// Compiled SPIR-V kept between runs, so that a launch does not run shaderc on every shader:
// one file per shader variant under <cache_directory()>/spirv/, named by a digest of all that
// decides the compiler's output — the shader's name (its stage), its source text and that of
// every file it includes, the macros of the variant, the compile options and the versions of
// shaderc, glslang and SPIRV-Tools. Specialization constants are not in the key: they are applied
// when the pipeline is created (pipeline_cache.hpp), not by the compiler.
#pragma once
#include "normlab/gpu/cache_file.hpp"
#include "normlab/gpu/shader_library.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab::gpu {

Digest spirv_key(const std::string& name, const std::string& source, const ShaderMacros& macros);
std::string spirv_cache_path(const std::string& dir, const Digest& key);

// compile_glsl through the cache folder `dir` (none: compile only). A missing, stale, truncated
// or corrupt entry is compiled again and rewritten; a failed write is ignored.
std::vector<std::uint32_t> compile_glsl_cached(const std::string& name, const std::string& source,
                                               const ShaderMacros& macros, const std::optional<std::string>& dir);

}  // namespace normlab::gpu
